import { randomBytes } from 'node:crypto';
import { recordEvents } from '../../src/core/events/outbox';
import { HttpResponse, startTestApp, TestApp } from '../support/app';
import { countQueries, insertCourse, insertStudent, issueCertificate, orgUuid, planOf } from '../support/fixtures';

/**
 * `updated_since` (/v1) and `filter[updated_since]` (/v2) on the domain catalog, /v2 domains and
 * /v1 webhooks with their deliveries (docs/decisions/data-out.md): changed rows only, ordered by
 * last change across pages, each on its index; bad values 400 / 422.
 */
jest.setTimeout(120_000);

const rnd = () => randomBytes(4).toString('hex');
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
const enc = encodeURIComponent;

describe('catalog, domains and webhooks lists: updated_since', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  /** every page of a /v1 list (page size 2), in order */
  async function v1All(path: string, auth: { basic: string }): Promise<string[]> {
    const ids: string[] = [];
    for (let page = 1; ; page++) {
      const res = await t.get(`${path}${path.includes('?') ? '&' : '?'}page_size=2&page=${page}`, auth);
      expect(res.status).toBe(200);
      ids.push(...res.body.results.map((r: any) => r.id));
      if (!res.body.next) return ids;
    }
  }

  it('/v1/domains/{name}/published-courses?updated_since: changed published courses, by last change across pages, on published_courses_domain_updated_idx; bad value 400', async () => {
    const o = await t.newOrg();
    const key = { basic: o.api_key };
    const d = o.domain_name;
    const publish = async () => {
      const c = await t.post('/v1/courses', { title: `Course ${rnd()}`, short_description: 'S', enforce_sequential_navigation: false }, key);
      expect(c.status).toBe(201);
      const pc = await t.post(`/v1/domains/${d}/published-courses`, { course: { id: c.body.id }, slug: `c-${rnd()}` }, key);
      expect(pc.status).toBe(201);
      return pc.body.id as string;
    };
    const [a, b, c] = [await publish(), await publish(), await publish()];
    await pause(5);
    const mid = new Date().toISOString();
    await pause(5);
    expect((await t.patch(`/v1/domains/${d}/published-courses/${c}`, { hidden: true }, key)).status).toBe(200);
    await pause(5);
    expect((await t.patch(`/v1/domains/${d}/published-courses/${a}`, { slug: `again-${rnd()}` }, key)).status).toBe(200);

    const since = await t.get(`/v1/domains/${d}/published-courses?updated_since=${enc(mid)}`, key);
    expect(since.status).toBe(200);
    expect(since.body.results.map((r: any) => r.id)).toEqual([c, a]);
    expect(since.body.count).toBe(2);
    expect(await v1All(`/v1/domains/${d}/published-courses?updated_since=2000-01-01T00:00:00Z`, key)).toEqual([b, c, a]);
    // without it: oldest first, as before
    expect(await v1All(`/v1/domains/${d}/published-courses`, key)).toEqual([a, b, c]);
    const bad = await t.get(`/v1/domains/${d}/published-courses?updated_since=yesterday`, key);
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body)).toEqual(['updated_since']);
    const run = await countQueries(() => t.get(`/v1/domains/${d}/published-courses?updated_since=2000-01-01T00:00:00Z`, key));
    expect(await planOf(t, run, /FROM published_courses pc .*ORDER BY pc\.updated_at/s)).toMatch(/published_courses_domain_updated_idx/);

    // /v2/published-courses filter[updated_since]: the same rows by last change, across cursor pages
    const tok = await t.tokenFor(o);
    const v2All = async (path: string) => {
      const out: string[] = [];
      let url: string | null = path;
      while (url) {
        const res: HttpResponse = await t.get(url.replace(t.baseUrl, ''), { token: tok });
        expect(res.status).toBe(200);
        out.push(...res.body.data.map((x: any) => x.id as string));
        url = res.body.links.next;
      }
      return out;
    };
    expect(await v2All(`/v2/published-courses?filter[updated_since]=${enc(mid)}`)).toEqual([c, a]);
    expect(await v2All(`/v2/published-courses?filter[updated_since]=2000-01-01T00:00:00Z&page[size]=1`)).toEqual([b, c, a]);
    expect(await v2All(`/v2/published-courses?page[size]=1`)).toEqual([a, b, c]);
    const bad2 = await t.get(`/v2/published-courses?filter[updated_since]=yesterday`, { token: tok });
    expect(bad2.status).toBe(422);
    expect(bad2.body.errors[0].source).toEqual({ parameter: 'filter[updated_since]' });
    const run2 = await countQueries(() => t.get(`/v2/published-courses?filter[updated_since]=2000-01-01T00:00:00Z`, { token: tok }));
    expect(await planOf(t, run2, /ORDER BY pc\.updated_at/s)).toMatch(/published_courses_org_updated_idx/);
  });

  it('/v2/domains filter[updated_since]: changed domains, by last change across cursor pages, on domains_org_updated_idx; bad value 422', async () => {
    const o = await t.newOrg();
    const key = { basic: o.api_key };
    const tok = await t.tokenFor(o);
    const t0 = new Date(Date.now() - 1000).toISOString();
    const mk = async () => {
      const r = await t.post('/v1/domains', { name: `us-${rnd()}.example.test` }, key);
      expect(r.status).toBe(201);
      return r.body.name as string;
    };
    const [n2, n3] = [await mk(), await mk()];
    await pause(5);
    const mid = new Date().toISOString();
    await pause(5);
    expect((await t.patch(`/v1/domains/${n2}`, { catalog_title: `Title ${rnd()}` }, key)).status).toBe(200);
    await pause(5);
    expect((await t.patch(`/v1/domains/${o.domain_name}`, { catalog_title: `First ${rnd()}` }, key)).status).toBe(200);

    const all = async (path: string) => {
      const out: any[] = [];
      let url: string | null = path;
      while (url) {
        const res: HttpResponse = await t.get(url.replace(t.baseUrl, ''), { token: tok });
        expect(res.status).toBe(200);
        out.push(...res.body.data);
        url = res.body.links.next;
      }
      return out.map((x) => x.attributes.name as string);
    };
    expect(await all(`/v2/domains/?filter[updated_since]=${enc(mid)}`)).toEqual([n2, o.domain_name]);
    expect(await all(`/v2/domains/?filter[updated_since]=${enc(t0)}&page[size]=1`)).toEqual([n3, n2, o.domain_name]);
    expect(await all(`/v2/domains/?page[size]=1`)).toEqual([o.domain_name, n2, n3]);
    for (const bad of ['yesterday', '2026-01-01T00:00:00']) {
      const res = await t.get(`/v2/domains/?filter[updated_since]=${enc(bad)}`, { token: tok });
      expect(res.status).toBe(422);
      expect(res.body.errors[0].source).toEqual({ parameter: 'filter[updated_since]' });
    }
    const run = await countQueries(() => t.get(`/v2/domains/?filter[updated_since]=${enc(t0)}`, { token: tok }));
    expect(await planOf(t, run, /FROM "domains".*updated_at/s)).toMatch(/domains_org_updated_idx/);
    // another organization's domains are never in the list
    const other = await t.newOrg();
    const theirs = await t.get(`/v2/domains/?filter[updated_since]=${enc(t0)}`, { token: await t.tokenFor(other) });
    expect(theirs.body.data.map((x: any) => x.attributes.name)).toEqual([other.domain_name]);
  });

  it('/v1/webhooks and /v1/webhooks/{id}/deliveries ?updated_since: by last change across pages, on their indexes; bad value 400', async () => {
    const o = await t.newOrg();
    const key = { basic: o.api_key };
    const mk = async () => {
      const r = await t.post('/v1/webhooks', { target_url: `https://hooks.example.test/${rnd()}` }, key);
      expect(r.status).toBe(201);
      return r.body.id as string;
    };
    const [w1, w2, w3] = [await mk(), await mk(), await mk()];
    await pause(5);
    const mid = new Date().toISOString();
    await pause(5);
    expect((await t.patch(`/v1/webhooks/${w3}`, { target_url: `https://hooks.example.test/x${rnd()}` }, key)).status).toBe(200);
    await pause(5);
    expect((await t.patch(`/v1/webhooks/${w1}`, { target_url: `https://hooks.example.test/y${rnd()}` }, key)).status).toBe(200);
    const since = await t.get(`/v1/webhooks?updated_since=${enc(mid)}`, key);
    expect(since.status).toBe(200);
    expect(since.body.results.map((r: any) => r.id)).toEqual([w3, w1]);
    expect(await v1All(`/v1/webhooks?updated_since=2000-01-01T00:00:00Z`, key)).toEqual([w2, w3, w1]);
    expect(await v1All(`/v1/webhooks`, key)).toEqual([w1, w2, w3]);
    const bad = await t.get(`/v1/webhooks?updated_since=nope`, key);
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body)).toEqual(['updated_since']);
    const run = await countQueries(() => t.get(`/v1/webhooks?updated_since=2000-01-01T00:00:00Z`, key));
    expect(await planOf(t, run, /FROM "webhooks".*ORDER BY .*updated_at/s)).toMatch(/webhooks_org_updated_idx/);

    // deliveries: three events replayed to w2 (three deliveries), then the last two again (they change)
    const objects = {
      user: { id: 'stu_u', email: 'u@example.com', first_name: 'A', last_name: 'B' },
      course: { id: 'crs_c', published_course_id: 'pcs_c', title: 'C', url: 'https://d.test/c' },
      domain: { id: 'dom_d', name: 'd.test' },
    };
    const start = new Date(Date.now() - 1000).toISOString();
    for (let i = 0; i < 3; i++) {
      await t.ds.transaction((m) => recordEvents(m, [{ organizationId: orgUuid(o), type: 'COURSE_ENROLLMENT', objects }]));
      await pause(5);
    }
    const replay = await t.post(`/v1/webhooks/${w2}/replay`, { since: start }, key);
    expect(replay.status).toBe(202);
    const first = await v1All(`/v1/webhooks/${w2}/deliveries`, key);
    expect(first).toHaveLength(3);
    const [newest] = first; // newest first without the filter
    await pause(5);
    const mid2 = new Date().toISOString();
    await pause(5);
    expect((await t.post(`/v1/webhooks/${w2}/deliveries/${newest}/retry`, {}, key)).status).toBe(202);
    const changed = await t.get(`/v1/webhooks/${w2}/deliveries?updated_since=${enc(mid2)}`, key);
    expect(changed.status).toBe(200);
    expect(changed.body.results.map((r: any) => r.id)).toEqual([newest]);
    expect(changed.body.count).toBe(1);
    const byChange = await v1All(`/v1/webhooks/${w2}/deliveries?updated_since=2000-01-01T00:00:00Z`, key);
    expect(byChange).toHaveLength(3);
    expect(byChange[2]).toBe(newest);
    expect((await t.get(`/v1/webhooks/${w2}/deliveries?updated_since=2026-01-01`, key)).status).toBe(400);
    const runD = await countQueries(() => t.get(`/v1/webhooks/${w2}/deliveries?updated_since=2000-01-01T00:00:00Z`, key));
    expect(await planOf(t, runD, /FROM webhook_deliveries d .*ORDER BY d\.updated_at/s)).toMatch(/webhook_deliveries_webhook_updated_idx/);
  });

  it('/v2/certificates filter[updated_since]: changed certificates (updated_at moved by any change of the row), by last change across cursor pages, on certificates_org_updated_idx; bad value 422', async () => {
    const o = await t.newOrg();
    const tok = await t.tokenFor(o);
    const t0 = new Date(Date.now() - 1000).toISOString();
    const course = await insertCourse(t, o);
    const certs: string[] = [];
    for (let i = 0; i < 3; i++) certs.push((await issueCertificate(t, o, (await insertStudent(t, o)).uuid, course.uuid)).id);
    const [c1, c2, c3] = certs;
    await pause(5);
    const mid = new Date().toISOString();
    await pause(5);
    // a credential's first read assigns its status-list slot: a change of the row
    expect((await t.get(`/v2/certificates/${c1}/credential`, { token: tok })).status).toBe(200);
    const all = async (path: string) => {
      const out: string[] = [];
      let url: string | null = path;
      while (url) {
        const res: HttpResponse = await t.get(url.replace(t.baseUrl, ''), { token: tok });
        expect(res.status).toBe(200);
        out.push(...res.body.data.map((x: any) => x.id as string));
        url = res.body.links.next;
      }
      return out;
    };
    expect(await all(`/v2/certificates?filter[updated_since]=${enc(mid)}`)).toEqual([c1]);
    expect(await all(`/v2/certificates?filter[updated_since]=${enc(t0)}&page[size]=1`)).toEqual([c2, c3, c1]);
    expect(await all(`/v2/certificates?page[size]=1`)).toEqual([c1, c2, c3]);
    const bad = await t.get(`/v2/certificates?filter[updated_since]=yesterday`, { token: tok });
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].source).toEqual({ parameter: 'filter[updated_since]' });
    const run = await countQueries(() => t.get(`/v2/certificates?filter[updated_since]=${enc(t0)}`, { token: tok }));
    expect(await planOf(t, run, /FROM certificates c WHERE .*ORDER BY c\.updated_at/s)).toMatch(/certificates_org_updated_idx/);
    // another organization's certificates are never in the list
    expect((await t.get(`/v2/certificates?filter[updated_since]=${enc(t0)}`, { token: await t.tokenFor(await t.newOrg()) })).body.data).toEqual([]);
  });

  it('/v1/lessons?updated_since: changed lessons, by last change across pages (with course_id too), on lessons_org_live_updated_idx; bad value 400', async () => {
    const o = await t.newOrg();
    const key = { basic: o.api_key };
    const course = (await t.post('/v1/courses', { title: `C ${rnd()}`, short_description: 's', enforce_sequential_navigation: false }, key)).body.id as string;
    const mk = async (order: number) => {
      const r = await t.post('/v1/lessons', { course_id: course, title: `L${order}`, type: 'MODULAR', order }, key);
      expect(r.status).toBe(201);
      return r.body.id as string;
    };
    const [l1, l2, l3] = [await mk(1), await mk(2), await mk(3)];
    await pause(5);
    const mid = new Date().toISOString();
    await pause(5);
    expect((await t.patch(`/v1/lessons/${l3}`, { title: 'Third' }, key)).status).toBe(200);
    await pause(5);
    expect((await t.patch(`/v1/lessons/${l1}`, { title: 'First' }, key)).status).toBe(200);
    const since = await t.get(`/v1/lessons?updated_since=${enc(mid)}`, key);
    expect(since.status).toBe(200);
    expect(since.body.results.map((r: any) => r.id)).toEqual([l3, l1]);
    expect(since.body.count).toBe(2);
    expect(await v1All(`/v1/lessons?updated_since=2000-01-01T00:00:00Z`, key)).toEqual([l2, l3, l1]);
    expect(await v1All(`/v1/lessons?course_id=${course}&updated_since=${enc(mid)}`, key)).toEqual([l3, l1]);
    expect(await v1All(`/v1/lessons?course_id=${course}`, key)).toEqual([l1, l2, l3]);
    const bad = await t.get(`/v1/lessons?updated_since=nope`, key);
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body)).toEqual(['updated_since']);
    const run = await countQueries(() => t.get(`/v1/lessons?updated_since=2000-01-01T00:00:00Z`, key));
    expect(await planOf(t, run, /FROM "lessons".*ORDER BY .*updated_at/s)).toMatch(/lessons_org_live_updated_idx/);
  });
});
