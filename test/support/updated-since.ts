import type { HttpResponse, RequestOptions, TestApp } from './app';
import { countQueries, planOf } from './fixtures';

/**
 * The `updated_since` check of a list (docs/decisions/data-out.md, issue 32 point 1), shared by the
 * module tests: the rows changed since a time only, ordered by last change across pages, a bad value
 * refused, and the list statement's plan (sequential scans and sorts off: the index gives the filter
 * and the order) naming the index with no Seq Scan.
 */
export const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

const sep = (url: string) => (url.includes('?') ? '&' : '?');

/** Every page of a /v1 list from `url` as given (following `next`), the ids of its results in order (`idOf` picks a result's id). */
export async function v1Ids(t: TestApp, url: string, auth: RequestOptions, idOf: (r: any) => string = (r) => r.id): Promise<string[]> {
  const out: string[] = [];
  let next: string | null = url;
  while (next) {
    const res: HttpResponse = await t.get(next.replace(t.baseUrl, ''), auth);
    expect({ next, status: res.status }).toEqual({ next, status: 200 });
    out.push(...res.body.results.map(idOf));
    next = res.body.next;
  }
  return out;
}

/** Every page of a /v1 list (page_size 1), the ids of its results in order (`idOf` picks a result's id). */
export const v1PageIds = (t: TestApp, url: string, auth: RequestOptions, idOf?: (r: any) => string): Promise<string[]> => v1Ids(t, `${url}${sep(url)}page_size=1`, auth, idOf);

export interface V1SinceCase {
  /** the list's path (may carry its own query) */
  url: string;
  auth: RequestOptions;
  /** three rows of the list, made in this order */
  made: [string, string, string];
  /** change a row (the list then shows it as changed) */
  change: (id: string) => Promise<void>;
  idOf?: (r: any) => string;
  /** picks the list statement among those the request sent */
  statement: RegExp;
  index: string;
  /** a table to ANALYZE before the EXPLAIN (as autovacuum would): where indexes compete, the plan then follows the rows' spread */
  analyze?: string;
}

/**
 * A /v1 list's `updated_since`: after the third then the first row changed, `updated_since=<between>`
 * gives those two in the order they changed (count 2), every page from long ago gives the unchanged
 * one first, a time without an offset is 400 `{"updated_since": [...]}`, and the list statement is
 * served by `index` (no sequential scan).
 */
export async function checkV1UpdatedSince(t: TestApp, c: V1SinceCase): Promise<void> {
  const idOf = c.idOf ?? ((r: any) => r.id);
  const [a, b, z] = c.made;
  await pause(5);
  const mid = new Date().toISOString();
  await pause(5);
  await c.change(z);
  await pause(5);
  await c.change(a);
  const since = await t.get(`${c.url}${sep(c.url)}updated_since=${encodeURIComponent(mid)}`, c.auth);
  expect({ url: c.url, status: since.status }).toEqual({ url: c.url, status: 200 });
  expect({ url: c.url, count: since.body.count, ids: since.body.results.map(idOf) }).toEqual({ url: c.url, count: 2, ids: [z, a] });
  expect({ url: c.url, ids: await v1PageIds(t, `${c.url}${sep(c.url)}updated_since=2000-01-01T00:00:00Z`, c.auth, idOf) }).toEqual({ url: c.url, ids: [b, z, a] });
  expect((await t.get(`${c.url}${sep(c.url)}updated_since=2999-01-01T00:00:00Z`, c.auth)).body.results).toEqual([]);
  const bad = await t.get(`${c.url}${sep(c.url)}updated_since=2026-01-01T00:00:00`, c.auth);
  expect({ url: c.url, status: bad.status, body: Object.keys(bad.body) }).toEqual({ url: c.url, status: 400, body: ['updated_since'] });
  await expectIndexServes(t, () => t.get(`${c.url}${sep(c.url)}updated_since=2000-01-01T00:00:00Z`, c.auth), c.statement, c.index, c.analyze);
}

/** The statement `statement` picks among those `request` sent is planned on `index`, with no sequential scan (after `ANALYZE <analyze>` when given). */
export async function expectIndexServes(t: TestApp, request: () => Promise<HttpResponse>, statement: RegExp, index: string, analyze?: string): Promise<void> {
  if (analyze) await t.ownerQuery(`ANALYZE ${analyze}`);
  const run = await countQueries(request);
  expect(run.result.status).toBe(200);
  // sorts off: where a small table makes sorting a few rows cheapest, the plan must still show the index gives the list's order
  const plan = await planOf(t, run, statement, { indexOrder: true });
  expect({ index, plan }).toEqual({ index, plan: expect.stringContaining(index) });
  expect({ index, plan }).toEqual({ index, plan: expect.not.stringContaining('Seq Scan') });
}
