import { decodeId } from '../../src/core/ids/ids';
import type { CreatedOrg } from '../../src/modules/organizations/organizations.service';
import { startTestApp, TestApp } from '../support/app';
import { countQueries, domainOf, insertDomain, insertPlan, insertStudent, joinDomain, orgUuid } from '../support/fixtures';
import { drfFlat } from '../support/drf';

describe('/v1 plans and plan enrollments', () => {
  let t: TestApp;
  let org: CreatedOrg;
  let other: CreatedOrg;
  let token: string;
  let dn: string;
  let domainUuid: string;
  const basic = () => ({ basic: org.api_key });
  const bearer = () => ({ token });

  beforeAll(async () => {
    t = await startTestApp();
    org = await t.newOrg();
    other = await t.newOrg();
    token = await t.tokenFor(org);
    const d = await domainOf(t, org);
    dn = d.name;
    domainUuid = d.uuid;
  });
  afterAll(() => t.close());

  /** a learner of the organization who joined the domain (enrollments need domain membership) */
  const member = async (d: string = domainUuid, attrs: Parameters<typeof insertStudent>[2] = {}) => {
    const s = await insertStudent(t, org, attrs);
    await joinDomain(t, org, d, s.uuid);
    return s;
  };
  const count = async (table: string) => Number((await t.ds.query(`SELECT count(*)::int AS n FROM ${table} WHERE organization_id = $1`, [orgUuid(org)]))[0].n);

  it('401 without credentials; 403 without plans:read (plans) or enrollments:read (enrollments)', async () => {
    const plan = await insertPlan(t, org, domainUuid);
    expect((await t.get(`/v1/domains/${dn}/plan`)).status).toBe(401);
    expect((await t.get(`/v1/domains/${dn}/plan/${plan.id}/plan-enrollments`)).status).toBe(401);
    const noPlans = await t.tokenFor(org, ['enrollments:read', 'enrollments:write']);
    expect((await t.get(`/v1/domains/${dn}/plan`, { token: noPlans })).status).toBe(403);
    expect((await t.get(`/v1/domains/${dn}/plan/${plan.id}/plan-enrollments`, { token: noPlans })).status).toBe(200);
    const plansOnly = await t.tokenFor(org, ['plans:read', 'plans:write']);
    expect((await t.get(`/v1/domains/${dn}/plan`, { token: plansOnly })).status).toBe(200);
    const r = await t.get(`/v1/domains/${dn}/plan/${plan.id}/plan-enrollments`, { token: plansOnly });
    expect(r.status).toBe(403);
    expect(r.body).toEqual({ detail: expect.any(String) });
    const readOnly = await t.tokenFor(org, ['enrollments:read']);
    expect((await t.post(`/v1/domains/${dn}/plan/${plan.id}/plan-enrollments`, { user: { id: 'x' } }, { token: readOnly })).status).toBe(403);
  });

  it('lists plans of the domain (singular path) with their offer, 100 per page, and reads one', async () => {
    const d = await insertDomain(t, org);
    const a = await insertPlan(t, org, d.uuid, { name: 'Gold', slug: 'gold', short_description: 'All courses', price_cents: 4900 });
    const b = await insertPlan(t, org, d.uuid, { name: 'Free', slug: 'free', hidden: true, offer: false });
    const res = await t.get(`/v1/domains/${d.name}/plan`, basic());
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      count: 2,
      next: null,
      previous: null,
      results: [
        {
          id: a.id,
          plan: { id: a.id, title: 'Gold' },
          name: 'Gold',
          slug: 'gold',
          plan_url: `https://${d.name}/plan/gold`,
          offer: { id: a.offerId, registration_open: true, registration_url: expect.stringContaining(d.name), price: { amount: '49.00', currency_code: 'USD' } },
          hidden: false,
          short_description: 'All courses',
          published_courses: [],
          published_paths: [],
        },
        {
          id: b.id,
          plan: { id: b.id, title: 'Free' },
          name: 'Free',
          slug: 'free',
          plan_url: `https://${d.name}/plan/free`,
          offer: { id: b.offerId, registration_open: true, registration_url: expect.stringContaining(d.name), price: { amount: '0.00', currency_code: 'USD' } },
          hidden: true,
          short_description: null,
          published_courses: [],
          published_paths: [],
        },
      ],
    });
    expect((await t.get(`/v1/domains/${d.name}/plan/`, bearer())).body.count).toBe(2); // trailing slash
    const one = await t.get(`/v1/domains/${d.name}/plan/${a.id}`, bearer());
    expect(one.body).toEqual(res.body.results[0]);
    expect((await t.get(`/v1/domains/${d.name}/plan/nope`, basic())).status).toBe(404);
    // a plan of another domain is not found here
    expect((await t.get(`/v1/domains/${dn}/plan/${a.id}`, basic())).status).toBe(404);

    // pagination at 100
    const d2 = await insertDomain(t, org);
    for (let g = 1; g <= 101; g++) expect((await t.post(`/v1/domains/${d2.name}/plan`, { name: `p${g}`, hidden: false }, basic())).status).toBe(201);
    const p1 = await t.get(`/v1/domains/${d2.name}/plan?page_size=1000`, basic());
    expect(p1.body.count).toBe(101);
    expect(p1.body.results).toHaveLength(100);
    expect((await t.get(`/v1/domains/${d2.name}/plan?page=2`, basic())).body.results).toHaveLength(1);
    expect((await t.get(`/v1/domains/${d2.name}/plan?page=3`, basic())).status).toBe(404);
    expect((await t.get(`/v1/domains/${d2.name}/plan?page=x`, basic())).status).toBe(400);
  });

  it('enrolls users of the organization; create is idempotent for (user, enrolled_at)', async () => {
    const plan = await insertPlan(t, org, domainUuid);
    const url = `/v1/domains/${dn}/plan/${plan.id}/plan-enrollments`;
    const stu = await member(domainUuid, { email: 'plan-learner@example.test', first_name: 'Grace', last_name: 'Hopper' });
    const r1 = await t.post(url, { user: { id: stu.id } }, basic());
    expect(r1.status).toBe(201);
    expect(r1.body).toEqual({
      id: expect.stringMatching(/^[0-9a-z]+$/),
      user: { id: stu.id, email: 'plan-learner@example.test', first_name: 'Grace', last_name: 'Hopper', full_name: 'Grace Hopper' },
      enrolled_at: expect.stringMatching(/Z$/),
      active: true,
      // the registration's $0 purchase (docs/decisions/commerce.md, enrollments made without checkout)
      purchase: expect.objectContaining({ purchase_price: { amount: '0.00', currency_code: 'USD' }, purchase_state: 'SUCCESS', payment_processor: 'NONE', purchase_id: expect.stringMatching(/^pur/) }),
    });
    const row = await t.ds.query(`SELECT plan_id, user_id FROM plan_enrollments WHERE id = $1`, [decodeId('planEnrollment', r1.body.id)]);
    expect(row[0]).toEqual({ plan_id: plan.uuid, user_id: stu.uuid });

    const body = { user: { id: stu.id }, enrolled_at: '2026-03-01T09:30:00+02:00', expires_at: '2026-09-01T00:00:00Z', active: false };
    const r2 = await t.post(url, body, bearer());
    expect(r2.status).toBe(201);
    expect(r2.body).toMatchObject({ enrolled_at: '2026-03-01T07:30:00.000Z', expires_at: '2026-09-01T00:00:00.000Z', active: false });
    const r3 = await t.post(url, { ...body, active: true }, basic());
    expect(r3.status).toBe(200);
    expect(r3.body.id).toBe(r2.body.id);
    expect(r3.body.active).toBe(false);
    expect(await count('plan_enrollments')).toBe(2);

    // without enrolled_at the user's active, unexpired enrollment is returned (200)
    const again = await t.post(url, { user: { id: stu.id } }, basic());
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(r1.body.id);
    expect(await count('plan_enrollments')).toBe(2);

    const purchase = await t.post(
      url,
      { user: { id: stu.id }, enrolled_at: '2026-04-01T00:00:00Z', purchase: { purchase_price: { amount: '10', currency_code: 'EUR' }, purchase_state: 'PENDING' } },
      basic(),
    );
    expect(purchase.status).toBe(201);
    expect(purchase.body.purchase).toMatchObject({ purchase_price: { amount: '10.00', currency_code: 'EUR' }, purchase_state: 'PENDING', payment_processor: 'NONE' });

    const list = await t.get(url, bearer());
    expect(list.body.count).toBe(3);
    expect(list.body.results.map((r: any) => r.id)).toEqual([r1.body.id, r2.body.id, purchase.body.id]);
    const paged = await t.get(`${url}?page_size=2&page=2`, basic());
    expect(paged.body.results).toHaveLength(1);
    expect(paged.body.previous).toContain('page_size=2');
    expect((await t.get(`${url}?page_size=-1`, basic())).status).toBe(400);

    expect((await t.get(`${url}/${r1.body.id}`, basic())).body).toEqual(r1.body);
    const put = await t.request('PUT', `${url}/${r1.body.id}`, { body: { active: false }, ...bearer() });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ id: r1.body.id, active: false });
    expect(put.body).not.toHaveProperty('expires_at');
    const patch = await t.patch(`${url}/${r1.body.id}`, { expires_at: '2030-01-01T00:00:00Z' }, basic());
    expect(patch.body).toMatchObject({ active: false, expires_at: '2030-01-01T00:00:00.000Z' });
    const cleared = await t.patch(`${url}/${r1.body.id}`, { expires_at: null, active: true }, basic());
    expect(cleared.body).toMatchObject({ active: true });
    expect(cleared.body).not.toHaveProperty('expires_at');
    // enrolled_at and user are read-only on update
    const ro = await t.patch(`${url}/${r1.body.id}`, { enrolled_at: '2020-01-01T00:00:00Z', user: { id: 'x' } }, basic());
    expect(ro.status).toBe(200);
    expect(ro.body.enrolled_at).toBe(r1.body.enrolled_at);
  });

  it('bad input is a 400 field error, never a 500, and creates nothing', async () => {
    const plan = await insertPlan(t, org, domainUuid);
    const url = `/v1/domains/${dn}/plan/${plan.id}/plan-enrollments`;
    const stu = await member();
    const before = await count('plan_enrollments');
    const expect400 = async (body: unknown, field: string) => {
      const r = await t.post(url, body, basic());
      expect(r.status).toBe(400);
      expect(drfFlat(r.body)[field]).toBeDefined();
    };
    await expect400({}, 'user');
    await expect400({ user: {} }, 'user.id');
    await expect400({ user: { id: '' } }, 'user.id');
    await expect400({ user: { id: 'stu_nope' } }, 'user');
    const outsider = await insertStudent(t, org);
    const notMember = await t.post(url, { user: { id: outsider.id } }, basic());
    expect(notMember.status).toBe(400);
    expect(notMember.body.user).toEqual([expect.stringContaining('member')]);
    await expect400({ user: 'abc' }, 'user');
    await expect400({ user: { id: 'stu_\u0000' } }, 'user.id');
    expect((await t.get(`/v1/domains/x%00y/plan`, basic())).status).toBe(404); // a NUL in a path parameter names nothing that can exist: not found, without a statement (CONVENTIONS §2, issue 25 item 15d)
    await expect400({ user: { id: stu.id }, enrolled_at: '31/01/2026' }, 'enrolled_at');
    await expect400({ user: { id: stu.id }, enrolled_at: '2026-13-45T00:00:00Z' }, 'enrolled_at');
    await expect400({ user: { id: stu.id }, expires_at: 12 }, 'expires_at');
    await expect400({ user: { id: stu.id }, active: 'true' }, 'active');
    await expect400({ user: { id: stu.id }, purchase: { purchase_price: { amount: 'ten' } } }, 'purchase.purchase_price.amount');
    await expect400({ user: { id: stu.id }, purchase: { tax_price_cents: -1 } }, 'purchase.tax_price_cents');
    const notObject = await t.request('POST', url, { raw: { contentType: 'application/json', data: '"x"' }, ...basic() });
    expect(notObject.status).toBe(400);
    expect(await count('plan_enrollments')).toBe(before);
    const e = (await t.post(url, { user: { id: stu.id } }, basic())).body;
    expect((await t.patch(`${url}/${e.id}`, { expires_at: 'never' }, basic())).status).toBe(400);
    expect((await t.patch(`${url}/${e.id}`, { active: null }, basic())).status).toBe(400);
    expect((await t.get(`${url}/garbage`, basic())).status).toBe(404);
    expect((await t.get(`/v1/domains/${dn}/plan/garbage/plan-enrollments`, basic())).status).toBe(404);
  });

  it('every operation works with the API key (Basic) and with a Bearer token', async () => {
    const plan = await insertPlan(t, org, domainUuid);
    const b = `/v1/domains/${dn}/plan`;
    for (const cred of [basic(), bearer()]) {
      const ok = (r: { status: number; text: string }, status = 200) => expect([r.status, r.text]).toEqual([status, expect.anything()]);
      ok(await t.get(b, cred));
      ok(await t.get(`${b}/${plan.id}`, cred));
      const s = await member();
      const e = await t.post(`${b}/${plan.id}/plan-enrollments`, { user: { id: s.id } }, cred);
      ok(e, 201);
      ok(await t.get(`${b}/${plan.id}/plan-enrollments`, cred));
      ok(await t.get(`${b}/${plan.id}/plan-enrollments/${e.body.id}`, cred));
      ok(await t.request('PUT', `${b}/${plan.id}/plan-enrollments/${e.body.id}`, { body: { active: false }, ...cred }));
      ok(await t.patch(`${b}/${plan.id}/plan-enrollments/${e.body.id}`, { expires_at: '2031-01-01T00:00:00Z' }, cred));
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
    const one = await insertPlan(t, org, small.uuid);
    expect((await t.post(`/v1/domains/${small.name}/plan/${one.id}/plan-enrollments`, { user: { id: (await member(small.uuid)).id } }, basic())).status).toBe(201);
    let many = one;
    for (let i = 0; i < 10; i++) many = await insertPlan(t, org, big.uuid, { price_cents: i * 100 });
    for (let i = 0; i < 10; i++) {
      expect((await t.post(`/v1/domains/${big.name}/plan/${many.id}/plan-enrollments`, { user: { id: (await member(big.uuid)).id } }, basic())).status).toBe(201);
    }
    expect(await measure(`/v1/domains/${big.name}/plan`)).toBe(await measure(`/v1/domains/${small.name}/plan`));
    expect(await measure(`/v1/domains/${big.name}/plan/${many.id}/plan-enrollments`)).toBe(await measure(`/v1/domains/${small.name}/plan/${one.id}/plan-enrollments`));
  });

  it('cross-organization: another organization sees nothing and changes nothing', async () => {
    const plan = await insertPlan(t, org, domainUuid, { name: 'Mine' });
    const url = `/v1/domains/${dn}/plan/${plan.id}/plan-enrollments`;
    const stu = await member();
    const e = (await t.post(url, { user: { id: stu.id } }, basic())).body;
    const ob = { basic: other.api_key };
    const ot = { token: await t.tokenFor(other) };
    expect((await t.get(`/v1/domains/${dn}/plan`, ob)).status).toBe(404);
    expect((await t.get(`/v1/domains/${dn}/plan/${plan.id}`, ot)).status).toBe(404);
    expect((await t.get(url, ob)).status).toBe(404);
    expect((await t.post(url, { user: { id: stu.id } }, ob)).status).toBe(404);
    expect((await t.patch(`${url}/${e.id}`, { active: false }, ot)).status).toBe(404);
    const theirDomain = (await domainOf(t, other)).name;
    const theirs = `/v1/domains/${theirDomain}/plan`;
    expect((await t.get(theirs, ob)).body.results.map((r: any) => r.id)).not.toContain(plan.id);
    expect((await t.get(`${theirs}/${plan.id}`, ob)).status).toBe(404);
    expect((await t.request('PUT', `${theirs}/${plan.id}/plan-enrollments/${e.id}`, { body: { active: false }, ...ob })).status).toBe(404);
    // their user cannot be enrolled in my plan; my user cannot be enrolled in theirs
    const theirPlan = await insertPlan(t, other, (await domainOf(t, other)).uuid);
    const theirStudent = await insertStudent(t, other);
    const cross = await t.post(url, { user: { id: theirStudent.id } }, basic());
    expect(cross.status).toBe(400);
    expect(cross.body.user).toEqual([expect.any(String)]);
    expect((await t.post(`${theirs}/${theirPlan.id}/plan-enrollments`, { user: { id: stu.id } }, ob)).status).toBe(400);
    expect((await t.get(`${url}/${e.id}`, basic())).body.active).toBe(true);
  });
});
