import type { CreatedOrg } from '../../src/modules/organizations/organizations.service';
import { startTestApp, TestApp } from '../support/app';
import { countQueries, domainOf, insertCourse, insertCourseSeries, insertDomain, orgUuid, publishCourse } from '../support/fixtures';

describe('/v1 course series', () => {
  let t: TestApp;
  let org: CreatedOrg;
  let other: CreatedOrg;
  let token: string;
  const basic = () => ({ basic: org.api_key });
  const bearer = () => ({ token });

  beforeAll(async () => {
    t = await startTestApp();
    org = await t.newOrg();
    other = await t.newOrg();
    token = await t.tokenFor(org);
  });
  afterAll(() => t.close());

  it('401 without credentials, 403 without course-families:read', async () => {
    const d = await domainOf(t, org);
    const s = await insertCourseSeries(t, org, d.uuid);
    expect((await t.get(`/v1/domains/${d.name}/course-series`)).status).toBe(401);
    const narrow = await t.tokenFor(org, ['courses:read', 'paths:read']);
    const r = await t.get(`/v1/domains/${d.name}/course-series`, { token: narrow });
    expect(r.status).toBe(403);
    expect(r.body).toEqual({ detail: expect.any(String) });
    expect((await t.get(`/v1/domains/${d.name}/course-series/${s.id}/published-courses`, { token: narrow })).status).toBe(403);
    const ok = await t.tokenFor(org, ['course-families:read']);
    expect((await t.get(`/v1/domains/${d.name}/course-series`, { token: ok })).status).toBe(200);
  });

  it('lists series with their live course count and offer, and reads one', async () => {
    const d = await insertDomain(t, org);
    const courses = await Promise.all([1, 2, 3].map((i) => insertCourse(t, org, { title: `Series course ${i}` })));
    const pcs = await Promise.all(courses.map((c) => publishCourse(t, org, c.uuid, d.uuid)));
    const a = await insertCourseSeries(
      t,
      org,
      d.uuid,
      pcs.map((p) => p.uuid),
      { title: 'Cloud Series', offer: true },
    );
    const b = await insertCourseSeries(t, org, d.uuid, [], { title: 'Empty', visible_on_catalog: false });
    await t.ds.query(`UPDATE published_courses SET unpublished_at = now() WHERE id = $1`, [pcs[2].uuid]);

    for (const opts of [basic(), bearer()]) {
      const res = await t.get(`/v1/domains/${d.name}/course-series`, opts);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        count: 2,
        next: null,
        previous: null,
        results: [
          {
            id: a.id,
            title: 'Cloud Series',
            visible_on_catalog: true,
            series_url: expect.stringMatching(new RegExp(`^https://${d.name.replace(/\./g, '\\.')}/series/`)),
            published_course_count: 2,
            offer: { id: expect.stringMatching(/^[0-9a-z]+$/), registration_open: true, registration_url: expect.any(String), price: { amount: '0.00', currency_code: 'USD' } },
          },
          {
            id: b.id,
            title: 'Empty',
            visible_on_catalog: false,
            series_url: expect.any(String),
            published_course_count: 0,
            offer: { id: expect.stringMatching(/^ofr[0-9a-z]+$/), registration_open: true, registration_url: expect.any(String), price: { amount: '0.00', currency_code: 'USD' } },
          },
        ],
      });
    }
    const one = await t.get(`/v1/domains/${d.name}/course-series/${a.id}`, basic());
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ id: a.id, published_course_count: 2 });
    expect((await t.get(`/v1/domains/${d.name}/course-series/nope`, basic())).status).toBe(404);
    // another domain of the same organization does not hold it
    const main = await domainOf(t, org);
    expect((await t.get(`/v1/domains/${main.name}/course-series/${a.id}`, basic())).status).toBe(404);
    expect((await t.get(`/v1/domains/${d.name}/course-series?page=2`, basic())).status).toBe(404);
    expect((await t.get(`/v1/domains/${d.name}/course-series?page=-1`, basic())).status).toBe(400);
  });

  it('lists the published courses of a series in series order with course stats', async () => {
    const d = await insertDomain(t, org);
    const c1 = await insertCourse(t, org, { title: 'Zeta' });
    const c2 = await insertCourse(t, org, { title: 'Alpha' });
    for (const optional of [false, true]) {
      await t.ds.query(`INSERT INTO lessons (organization_id, course_id, title, type, optional) VALUES ($1, $2, 'L', 'HTML', $3)`, [orgUuid(org), c1.uuid, optional]);
    }
    await t.ds.query(`INSERT INTO lessons (organization_id, course_id, title, type, is_draft) VALUES ($1, $2, 'draft', 'HTML', true)`, [orgUuid(org), c1.uuid]);
    const p1 = await publishCourse(t, org, c1.uuid, d.uuid);
    const p2 = await publishCourse(t, org, c2.uuid, d.uuid, { is_hidden: true });
    const s = await insertCourseSeries(t, org, d.uuid, [p1.uuid, p2.uuid]);
    const url = `/v1/domains/${d.name}/course-series/${s.id}/published-courses`;
    const res = await t.get(url, bearer());
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(2);
    expect(res.body.results.map((r: any) => r.id)).toEqual([p1.id, p2.id]);
    expect(res.body.results[0]).toMatchObject({
      id: p1.id,
      course: { id: c1.id, title: 'Zeta', lesson_count: 2, required_lesson_count: 1 },
      slug: expect.any(String),
      course_url: expect.stringContaining(d.name),
      hidden: false,
      registration_required: false,
      offer: { id: expect.stringMatching(/^ofr[0-9a-z]+$/), registration_open: true, registration_url: expect.any(String), price: { amount: '0.00', currency_code: 'USD' } },
    });
    expect(res.body.results[1]).toMatchObject({ hidden: true, course: { lesson_count: 0, required_lesson_count: 0 } });
    expect((await t.get(`/v1/domains/${d.name}/course-series/nope/published-courses`, basic())).status).toBe(404);
  });

  it('every operation works with the API key (Basic) and with a Bearer token', async () => {
    const d = await domainOf(t, org);
    const s = await insertCourseSeries(t, org, d.uuid, [(await publishCourse(t, org, (await insertCourse(t, org)).uuid)).uuid]);
    for (const cred of [basic(), bearer()]) {
      expect((await t.get(`/v1/domains/${d.name}/course-series`, cred)).status).toBe(200);
      expect((await t.get(`/v1/domains/${d.name}/course-series/${s.id}`, cred)).status).toBe(200);
      const courses = await t.get(`/v1/domains/${d.name}/course-series/${s.id}/published-courses`, cred);
      expect([courses.status, courses.body.count]).toEqual([200, 1]);
    }
  });

  it('lists run the same number of statements for 1 row and for many (no N+1)', async () => {
    const measure = async (url: string) => {
      await t.get(url, basic());
      const { result, count: n } = await countQueries(() => t.get(url, basic()));
      expect(result.status).toBe(200);
      expect(n).toBeGreaterThan(0);
      return n;
    };
    const small = await insertDomain(t, org);
    const big = await insertDomain(t, org);
    const pcOf = async (d: { uuid: string }) => (await publishCourse(t, org, (await insertCourse(t, org)).uuid, d.uuid)).uuid;
    const one = await insertCourseSeries(t, org, small.uuid, [await pcOf(small)], { offer: true });
    let many = one;
    for (let i = 0; i < 6; i++) many = await insertCourseSeries(t, org, big.uuid, [await pcOf(big), await pcOf(big)], { offer: true });
    expect(await measure(`/v1/domains/${big.name}/course-series`)).toBe(await measure(`/v1/domains/${small.name}/course-series`));
    expect(await measure(`/v1/domains/${big.name}/course-series/${many.id}/published-courses`)).toBe(await measure(`/v1/domains/${small.name}/course-series/${one.id}/published-courses`));
  });

  it('cross-organization: another organization neither lists nor reads them', async () => {
    const d = await domainOf(t, org);
    const s = await insertCourseSeries(t, org, d.uuid, [], { title: 'Private series' });
    const ob = { basic: other.api_key };
    expect((await t.get(`/v1/domains/${d.name}/course-series`, ob)).status).toBe(404);
    expect((await t.get(`/v1/domains/${d.name}/course-series/${s.id}`, { token: await t.tokenFor(other) })).status).toBe(404);
    const theirs = (await domainOf(t, other)).name;
    const list = await t.get(`/v1/domains/${theirs}/course-series`, ob);
    expect(list.status).toBe(200);
    expect(list.body.results.map((r: any) => r.id)).not.toContain(s.id);
    expect((await t.get(`/v1/domains/${theirs}/course-series/${s.id}`, ob)).status).toBe(404);
    expect((await t.get(`/v1/domains/${theirs}/course-series/${s.id}/published-courses`, ob)).status).toBe(404);
    expect((await t.get(`/v1/domains/no-such-domain.test/course-series`, basic())).status).toBe(404);
    expect((await t.get(`/v1/domains/bad%00name/course-series`, basic())).status).toBe(404); // a NUL in a path parameter names nothing that can exist: not found, without a statement (CONVENTIONS §2, issue 25 item 15d)
    expect((await t.get(`/v1/domains/${d.name}/course-series/%00`, basic())).status).toBe(404); // a NUL in a path parameter names nothing that can exist: not found, without a statement (CONVENTIONS §2, issue 25 item 15d)
  });
});
