import type { HttpResponse, RequestOptions, TestApp } from './app';
import { countQueries, planOf, v2Pages } from './fixtures';

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
const joinQuery = (url: string, q: string) => `${url}${url.includes('?') ? '&' : '?'}${q}`;

/**
 * The checks of a /v1 list's `updated_since` (docs/decisions/data-out.md), for the list tests of the
 * modules: the time between two writes, every page of a list, the 400 on a bad value, and the plan
 * of the list statement with the parameter (the index that serves it, no Seq Scan).
 */
export function v1SinceChecks(t: TestApp, auth: RequestOptions) {
  const ok = (r: HttpResponse, status = 200) => {
    expect({ status: r.status, body: r.status === status ? undefined : r.body }).toEqual({ status, body: undefined });
    return r.body;
  };
  return {
    ok,
    pause,
    /** A time between writes (URL-encoded): rows written before it are not changed since it. */
    async between(): Promise<string> {
      await pause(5);
      const at = new Date().toISOString();
      await pause(5);
      return encodeURIComponent(at);
    },
    /** Every page of a /v1 list (page_size 1), each row's id (`id` picks it). */
    async pages(path: string, id: (r: any) => string = (r) => r.id): Promise<string[]> {
      const out: string[] = [];
      let url: string | null = joinQuery(path, 'page_size=1');
      while (url) {
        const body = ok(await t.get(url.replace(t.baseUrl, ''), auth));
        out.push(...body.results.map(id));
        url = body.next;
      }
      return out;
    },
    /** The list's answer to a time without an offset: 400 naming updated_since only. */
    async refusesBadTime(url: string) {
      const bad = await t.get(joinQuery(url, 'updated_since=2026-01-01T00:00:00'), auth);
      expect({ url, status: bad.status, members: Object.keys(bad.body ?? {}) }).toEqual({ url, status: 400, members: ['updated_since'] });
    },
    /** The plan of the statement `match` picks among those the list sent with updated_since: it names `index` and has no Seq Scan. */
    async servedBy(url: string, match: RegExp, index: string) {
      const run = await countQueries(() => t.get(joinQuery(url, 'updated_since=2000-01-01T00:00:00Z'), auth));
      const plan = await planOf(t, run, match);
      expect({ url, index: plan.includes(index), seqScan: /Seq Scan/.test(plan), plan }).toEqual({ url, index: true, seqScan: false, plan });
    },
  };
}

/**
 * The same checks of a /v2 list's `filter[updated_since]`: every item across cursor pages (their
 * ids), the 422 naming the parameter on a bad value, and the plan of the list statement.
 */
export function v2SinceChecks(t: TestApp, token: string) {
  return {
    /** Every item of the list across its cursor pages (page[size]=1), their ids. */
    async pages(path: string): Promise<string[]> {
      return (await v2Pages(t, joinQuery(path, 'page[size]=1'), token)).map((x) => x.id as string);
    },
    /** The list's answer to a time without an offset: 422 naming filter[updated_since]. */
    async refusesBadTime(url: string) {
      const bad = await t.get(joinQuery(url, 'filter[updated_since]=2026-01-01T00:00:00'), { token });
      expect({ url, status: bad.status, source: bad.body?.errors?.[0]?.source }).toEqual({ url, status: 422, source: { parameter: 'filter[updated_since]' } });
    },
    /** The plan of the statement `match` picks among those the list sent with filter[updated_since]: it names `index` and has no Seq Scan. */
    async servedBy(url: string, match: RegExp, index: string) {
      const run = await countQueries(() => t.get(joinQuery(url, 'filter[updated_since]=2000-01-01T00:00:00Z'), { token }));
      const plan = await planOf(t, run, match);
      expect({ url, index: plan.includes(index), seqScan: /Seq Scan/.test(plan), plan }).toEqual({ url, index: true, seqScan: false, plan });
    },
  };
}
