import { startTestApp, TestApp } from '../support/app';
import { countQueries, insertCourse, insertStudent, publishCourse } from '../support/fixtures';
import type { CreatedOrg } from '../../src/modules/organizations/organizations.service';

/**
 * /v1 enrollments of a published course with `updated_since` (docs/decisions/data-out.md): only
 * the enrollments changed at or after it, ordered by last change (updated_at, id) across pages,
 * on the index (organization_id, published_course_id, updated_at, id); a bad value is a 400 at
 * `updated_since`; another organization's enrollments never show.
 */
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('/v1 published-course enrollments: updated_since', () => {
  let t: TestApp;
  let org: CreatedOrg;
  beforeAll(async () => {
    t = await startTestApp();
    org = await t.newOrg();
  });
  afterAll(() => t.close());

  const auth = () => ({ basic: org.api_key });

  async function enrolled(o: CreatedOrg, n: number) {
    const c = await insertCourse(t, o, { title: 'Synced' });
    const pc = await publishCourse(t, o, c.uuid);
    const base = `/v1/domains/${o.domain_name}/published-courses/${pc.id}/enrollments`;
    const ids: string[] = [];
    for (let i = 0; i < n; i++) {
      const s = await insertStudent(t, o, { email: `sync-${i}-${Date.now()}@example.test`, first_name: 'S', last_name: `${i}` });
      await t.ds.query(`INSERT INTO domain_users (organization_id, domain_id, user_id) SELECT organization_id, id, $2 FROM domains WHERE lower(name) = lower($1)`, [o.domain_name, s.uuid]);
      const res = await t.post(base, { user: { id: s.id } }, { basic: o.api_key });
      expect(res.status).toBe(201);
      ids.push(res.body.id);
      await pause(3);
    }
    return { base, ids };
  }

  it('changed enrollments only, ordered by last change across pages; bad values 400', async () => {
    const { base, ids } = await enrolled(org, 3);
    const [a, b, c] = ids;
    await pause(5);
    const mid = new Date().toISOString();
    await pause(5);
    expect((await t.patch(`${base}/${a}`, { active: false }, auth())).status).toBe(200);

    const since = await t.get(`${base}?updated_since=${encodeURIComponent(mid)}`, auth());
    expect(since.status).toBe(200);
    expect(since.body.count).toBe(1);
    expect(since.body.results.map((r: any) => [r.id, r.active])).toEqual([[a, false]]);

    // everything, by last change: b and c as enrolled, then a (changed last); the same order page by page
    const everything = await t.get(`${base}?updated_since=2000-01-01T00:00:00Z`, auth());
    expect(everything.body.results.map((r: any) => r.id)).toEqual([b, c, a]);
    const pages: string[] = [];
    for (let page = 1; page <= 3; page++) {
      const res = await t.get(`${base}?updated_since=2000-01-01T00:00:00Z&page=${page}&page_size=1`, auth());
      expect(res.status).toBe(200);
      pages.push(...res.body.results.map((r: any) => r.id));
    }
    expect(pages).toEqual([b, c, a]);
    // without the parameter the list stays as it was: oldest enrollment first
    expect((await t.get(base, auth())).body.results.map((r: any) => r.id)).toEqual([a, b, c]);
    // a later time than every change: nothing
    expect((await t.get(`${base}?updated_since=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`, auth())).body).toMatchObject({ count: 0, results: [] });

    for (const bad of ['nope', '2026-01-01', '2026-01-01T00:00:00']) {
      const res = await t.get(`${base}?updated_since=${encodeURIComponent(bad)}`, auth());
      expect({ bad, status: res.status, keys: Object.keys(res.body) }).toEqual({ bad, status: 400, keys: ['updated_since'] });
    }

    // another organization's published course is not found, whatever the filter
    const other = await t.newOrg();
    const theirs = await enrolled(other, 1);
    expect((await t.get(`${theirs.base.replace(other.domain_name, org.domain_name)}?updated_since=2000-01-01T00:00:00Z`, auth())).status).toBe(404);
  });

  it('the filtered page is served by the (organization_id, published_course_id, updated_at, id) index', async () => {
    const { base } = await enrolled(org, 2);
    const run = await countQueries(() => t.get(`${base}?updated_since=2000-01-01T00:00:00Z`, auth()));
    const i = run.statements.findIndex((s) => /FROM enrollments e/.test(s) && /ORDER BY e\.updated_at, e\.id/.test(s));
    expect(i).toBeGreaterThanOrEqual(0);
    const qr = t.ds.createQueryRunner();
    try {
      await qr.query('SET enable_seqscan = off');
      const plan = (await qr.query(`EXPLAIN ${run.statements[i]}`, run.params[i])).map((r: any) => r['QUERY PLAN']).join('\n');
      expect(plan).toMatch(/enrollments_org_pc_updated_idx/);
      expect(plan).not.toMatch(/Seq Scan on enrollments/);
    } finally {
      await qr.query('RESET enable_seqscan');
      await qr.release();
    }
  });
});
