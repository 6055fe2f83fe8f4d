import { decodeId, encodeId } from '../../src/core/ids/ids';
import type { CreatedOrg } from '../../src/modules/organizations/organizations.service';
import { startTestApp, TestApp } from '../support/app';
import { orgUuid } from '../support/fixtures';
import { journey } from '../support/learner-journey';

/** /v1/promo-code-pools, their offers, and /v1/promo-codes (CONVENTIONS §11; docs/decisions/commerce-limits.md). */
describe('/v1 promo code pools and promo codes', () => {
  let t: TestApp;
  let org: CreatedOrg;
  let other: CreatedOrg;
  const A = () => ({ basic: org.api_key });
  const B = () => ({ basic: other.api_key });
  const START = '2026-01-01T00:00:00Z';

  /** Offers through the API: each published course carries one (read from its offer block). */
  const offers = async (n: number, o: CreatedOrg = org): Promise<string[]> => {
    const out: string[] = [];
    const j = journey(t, o);
    for (let i = 0; i < n; i++) {
      const c = await j.course([{}]);
      const read = await t.get(`/v1/domains/${o.domain_name}/published-courses/${c.publishedCourseId}`, { basic: o.api_key });
      out.push(read.body.offer.id);
    }
    return out;
  };
  const pool = async (body: Record<string, unknown> = {}, o: CreatedOrg = org) => {
    const r = await t.post('/v1/promo-code-pools', { name: `Pool ${Math.random()}`, starts_at: START, discount_type: 'PERCENT_OFF', percent_off: 20, ...body }, { basic: o.api_key });
    expect(r.status).toBe(201);
    return r.body;
  };
  const counts = async () =>
    (
      await t.ds.query(
        `SELECT (SELECT count(*)::int FROM promo_code_pools WHERE organization_id = $1) AS pools, (SELECT count(*)::int FROM promo_codes WHERE organization_id = $1) AS codes,
                (SELECT count(*)::int FROM promo_code_pool_offers WHERE organization_id = $1) AS links`,
        [orgUuid(org)],
      )
    )[0];

  beforeAll(async () => {
    t = await startTestApp();
    org = await t.newOrg();
    other = await t.newOrg();
  });
  afterAll(() => t.close());

  it('creates, reads, lists (name and offer_id filters), updates with PUT and PATCH, and deletes a pool', async () => {
    const created = await pool({ name: 'Spring', single_use_per_user: true, expires_at: '2027-01-01T00:00:00Z' });
    expect(created).toEqual({
      id: expect.stringMatching(/^pcpl[0-9a-z]{25}$/),
      name: 'Spring',
      active: true,
      discount_type: 'PERCENT_OFF',
      price_cents: null,
      percent_off: 20,
      starts_at: '2026-01-01T00:00:00.000Z',
      expires_at: '2027-01-01T00:00:00.000Z',
      expire_content: false,
      single_use_per_user: true,
    });
    const override = await pool({ name: 'Override', discount_type: 'PRICE_OVERRIDE', price_cents: 500, percent_off: undefined });
    expect(override).toMatchObject({ discount_type: 'PRICE_OVERRIDE', price_cents: 500, percent_off: null });
    expect((await t.get(`/v1/promo-code-pools/${created.id}`, A())).body).toEqual(created);

    const [offer] = await offers(1);
    expect((await t.post(`/v1/promo-code-pools/${override.id}/offers`, { id: offer }, A())).status).toBe(201);
    const byName = await t.get('/v1/promo-code-pools?name=Spring', A());
    expect(byName.body).toMatchObject({ count: 1, next: null, previous: null });
    expect(byName.body.results[0].id).toBe(created.id);
    const byOffer = await t.get(`/v1/promo-code-pools?offer_id=${offer}`, A());
    expect(byOffer.body.results.map((r: any) => r.id)).toEqual([override.id]);
    expect((await t.get('/v1/promo-code-pools?offer_id=nonsense', A())).body.count).toBe(0);
    expect((await t.get('/v1/promo-code-pools?page_size=1', A())).body).toMatchObject({ count: 2, next: expect.stringContaining('page=2') });

    // PUT needs name and starts_at; PATCH takes any member
    const putMissing = await t.request('PUT', `/v1/promo-code-pools/${created.id}`, { ...A(), body: { active: false } });
    expect(putMissing.status).toBe(400);
    expect(putMissing.body).toEqual({ name: ['This field is required.'], starts_at: ['This field is required.'] });
    const put = await t.request('PUT', `/v1/promo-code-pools/${created.id}`, { ...A(), body: { name: 'Spring 2', starts_at: '2026-02-01T00:00:00Z', active: false } });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ name: 'Spring 2', starts_at: '2026-02-01T00:00:00.000Z', active: false, percent_off: 20 });
    const patch = await t.patch(`/v1/promo-code-pools/${created.id}`, { expires_at: null, expire_content: true }, A());
    expect(patch.status).toBe(200);
    expect(patch.body).toMatchObject({ name: 'Spring 2', expires_at: null, expire_content: true, active: false });

    expect((await t.delete(`/v1/promo-code-pools/${created.id}`, A())).status).toBe(204);
    expect((await t.get(`/v1/promo-code-pools/${created.id}`, A())).status).toBe(404);
  });

  it('refuses bad pool bodies with a 400 naming the member, creating nothing', async () => {
    const before = await counts();
    const bad: [Record<string, unknown>, Record<string, string[]>][] = [
      [{ starts_at: START, discount_type: 'PERCENT_OFF', percent_off: 5 }, { name: ['This field is required.'] }],
      [{ name: 'x', discount_type: 'PERCENT_OFF', percent_off: 5 }, { starts_at: ['This field is required.'] }],
      [{ name: 'x', starts_at: START, percent_off: 5 }, { discount_type: ['This field is required.'] }],
      [{ name: 'x', starts_at: START, discount_type: 'HALF', percent_off: 5 }, { discount_type: ['"HALF" is not a valid choice.'] }],
      [{ name: 'x', starts_at: START, discount_type: 'PERCENT_OFF', percent_off: 101 }, { percent_off: ['Ensure this value is less than or equal to 100.'] }],
      [{ name: 'x', starts_at: START, discount_type: 'PERCENT_OFF', percent_off: -1 }, { percent_off: ['Ensure this value is greater than or equal to 0.'] }],
      [{ name: 'x', starts_at: START, discount_type: 'PERCENT_OFF', percent_off: 2.5 }, { percent_off: ['A valid integer is required.'] }],
      [{ name: 'x', starts_at: START, discount_type: 'PERCENT_OFF' }, { percent_off: ['This field is required when discount_type is PERCENT_OFF.'] }],
      [{ name: 'x', starts_at: START, discount_type: 'PRICE_OVERRIDE' }, { price_cents: ['This field is required when discount_type is PRICE_OVERRIDE.'] }],
      [{ name: 'x', starts_at: START, discount_type: 'PERCENT_OFF', percent_off: 5, price_cents: 100 }, { price_cents: ['price_cents applies only to PRICE_OVERRIDE pools.'] }],
      [{ name: 'x', starts_at: START, discount_type: 'PERCENT_OFF', percent_off: 5, expires_at: '2025-01-01T00:00:00Z' }, { expires_at: ['expires_at must be after starts_at.'] }],
      [{ name: 'x', starts_at: 'yesterday', discount_type: 'PERCENT_OFF', percent_off: 5 }, { starts_at: [expect.stringContaining('Datetime has wrong format')] as any }],
    ];
    for (const [body, errors] of bad) {
      const r = await t.post('/v1/promo-code-pools', body, A());
      expect({ body, status: r.status, errors: r.body }).toEqual({ body, status: 400, errors });
    }
    const p = await pool();
    expect((await t.patch(`/v1/promo-code-pools/${p.id}`, { expires_at: '2025-06-01T00:00:00Z' }, A())).body).toEqual({ expires_at: ['expires_at must be after starts_at.'] });
    expect((await t.patch(`/v1/promo-code-pools/${p.id}`, { active: 'yes' }, A())).body).toEqual({ active: ['Must be a valid boolean.'] });
    expect((await t.get(`/v1/promo-code-pools/${p.id}`, A())).body).toEqual(p);
    expect(await counts()).toEqual({ ...before, pools: before.pools + 1 });
  });

  it('attaches one offer or a list of up to 500, lists and detaches them; unknown or foreign offers are a 400 attaching nothing', async () => {
    const p = await pool();
    const [o1, o2, o3] = await offers(3);
    const one = await t.post(`/v1/promo-code-pools/${p.id}/offers`, { id: o1 }, A());
    expect(one.status).toBe(201);
    expect(one.body).toEqual({
      offers: [
        expect.objectContaining({ id: o1, offer_type: 'published_course', published_course_id: expect.stringMatching(/^pcs/), domain_name: org.domain_name, price_cents: 0, currency_code: 'USD' }),
      ],
    });
    // each offer is the published OfferItem as /v1/offers answers it (max_quantity, active, starts_at, linked_to_plan included)
    expect(one.body.offers[0]).toEqual((await t.get(`/v1/offers/${o1}`, A())).body);
    const many = await t.post(`/v1/promo-code-pools/${p.id}/offers`, [{ id: o1 }, { id: o2 }, { id: o3 }, { id: o2 }], A());
    expect(many.status).toBe(201);
    expect(many.body.offers.map((o: any) => o.id).sort()).toEqual([o1, o2, o3].sort());
    const list = await t.get(`/v1/promo-code-pools/${p.id}/offers?page_size=2`, A());
    expect(list.body).toMatchObject({ count: 3, next: expect.stringContaining('page=2'), previous: null });
    expect(list.body.results.map((r: any) => r.offers[0].id)).toEqual([o1, o2]);
    expect(list.body.results[0].offers[0]).toEqual(one.body.offers[0]);

    const [foreign] = await offers(1, other);
    const before = await counts();
    for (const [body, errors] of [
      [[{ id: o1 }, { id: foreign }], { id: [`Invalid pk "${foreign}" - object does not exist.`] }],
      [{ id: 'ofrnope' }, { id: ['Invalid pk "ofrnope" - object does not exist.'] }],
      [{}, { id: ['This field is required.'] }],
      [{ id: 5 }, { id: ['Not a valid string.'] }],
      [[], { non_field_errors: ['Expected at least one offer.'] }],
      [['x'], { non_field_errors: ['Invalid data. Expected a dictionary.'] }],
      [Array.from({ length: 501 }, () => ({ id: o1 })), { non_field_errors: ['At most 500 offers may be attached per request.'] }],
    ] as [unknown, unknown][]) {
      const r = await t.post(`/v1/promo-code-pools/${p.id}/offers`, body, A());
      expect({ status: r.status, body: r.body }).toEqual({ status: 400, body: errors });
    }
    expect(await counts()).toEqual(before);
    const five = await t.post(
      `/v1/promo-code-pools/${p.id}/offers`,
      Array.from({ length: 500 }, () => ({ id: o3 })),
      A(),
    );
    expect(five.status).toBe(201);

    expect((await t.delete(`/v1/promo-code-pools/${p.id}/offers/${o2}`, A())).status).toBe(204);
    expect((await t.delete(`/v1/promo-code-pools/${p.id}/offers/${o2}`, A())).status).toBe(404);
    expect((await t.get(`/v1/promo-code-pools/${p.id}/offers`, A())).body.results.map((r: any) => r.offers[0].id)).toEqual([o1, o3]);
    // another organization sees nothing of it
    expect((await t.get(`/v1/promo-code-pools/${p.id}/offers`, B())).status).toBe(404);
    expect((await t.post(`/v1/promo-code-pools/${p.id}/offers`, { id: o1 }, B())).status).toBe(404);
    expect((await t.delete(`/v1/promo-code-pools/${p.id}/offers/${o1}`, B())).status).toBe(404);
  });

  it('promo codes: create in an existing pool, unique case-sensitive code, list filters, read, PUT/PATCH, delete', async () => {
    const p1 = await pool();
    const p2 = await pool();
    const c1 = await t.post('/v1/promo-codes', { code: 'SAVE20', max_uses: 5, promo_code_pool_id: p1.id }, A());
    expect(c1.status).toBe(201);
    expect(c1.body).toEqual({ id: expect.stringMatching(/^prmc[0-9a-z]{25}$/), code: 'SAVE20', use_count: 0, max_uses: 5, active: true, promo_code_pool_id: p1.id });
    const c2 = await t.post('/v1/promo-codes', { code: 'save20', max_uses: 1, promo_code_pool_id: p2.id, active: false }, A());
    expect(c2.status).toBe(201);
    const dup = await t.post('/v1/promo-codes', { code: 'SAVE20', max_uses: 1, promo_code_pool_id: p2.id }, A());
    expect(dup.status).toBe(400);
    expect(dup.body).toEqual({ code: ['A promo code with this code already exists.'] });
    // another organization may use the same code
    const p3 = await pool({}, other);
    expect((await t.post('/v1/promo-codes', { code: 'SAVE20', max_uses: 1, promo_code_pool_id: p3.id }, B())).status).toBe(201);

    const codesOf = async (q: string) => (await t.get(`/v1/promo-codes${q}`, A())).body.results.map((r: any) => r.code);
    expect(await codesOf('?code=SAVE20')).toEqual(['SAVE20']);
    expect(await codesOf('?code=save20')).toEqual(['save20']);
    expect(await codesOf('?code=Save20')).toEqual([]);
    expect(await codesOf(`?promo_code_pool_id=${p2.id}`)).toEqual(['save20']);
    expect(await codesOf('?promo_code_pool_id=garbage')).toEqual([]);
    expect(await codesOf('?active=false')).toEqual(['save20']);
    expect(await codesOf('?active=true')).toContain('SAVE20');
    expect((await t.get('/v1/promo-codes?active=maybe', A())).status).toBe(400);
    expect((await t.get(`/v1/promo-codes/${c1.body.id}`, A())).body).toEqual(c1.body);

    const putMissing = await t.request('PUT', `/v1/promo-codes/${c1.body.id}`, { ...A(), body: { active: false } });
    expect(putMissing.body).toEqual({ code: ['This field is required.'], max_uses: ['This field is required.'] });
    const put = await t.request('PUT', `/v1/promo-codes/${c1.body.id}`, { ...A(), body: { code: 'SAVE25', max_uses: 10, promo_code_pool_id: p2.id } });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ code: 'SAVE25', max_uses: 10, promo_code_pool_id: p1.id });
    const taken = await t.patch(`/v1/promo-codes/${c1.body.id}`, { code: 'save20' }, A());
    expect(taken.body).toEqual({ code: ['A promo code with this code already exists.'] });
    expect((await t.patch(`/v1/promo-codes/${c1.body.id}`, { active: false }, A())).body).toMatchObject({ code: 'SAVE25', active: false });

    expect((await t.delete(`/v1/promo-codes/${c1.body.id}`, B())).status).toBe(404);
    expect((await t.delete(`/v1/promo-codes/${c1.body.id}`, A())).status).toBe(204);
    expect((await t.get(`/v1/promo-codes/${c1.body.id}`, A())).status).toBe(404);
  });

  it('refuses bad promo code bodies with a 400 naming the member, changing nothing', async () => {
    const p = await pool();
    const [foreignPool] = [await pool({}, other)];
    const before = await counts();
    for (const [body, errors] of [
      [{ max_uses: 1, promo_code_pool_id: p.id }, { code: ['This field is required.'] }],
      [{ code: 'X', promo_code_pool_id: p.id }, { max_uses: ['This field is required.'] }],
      [{ code: 'X', max_uses: 1 }, { promo_code_pool_id: ['This field is required.'] }],
      [{ code: 'X', max_uses: -1, promo_code_pool_id: p.id }, { max_uses: ['Ensure this value is greater than or equal to 0.'] }],
      [{ code: 'X'.repeat(41), max_uses: 1, promo_code_pool_id: p.id }, { code: ['Ensure this field has no more than 40 characters.'] }],
      [{ code: '', max_uses: 1, promo_code_pool_id: p.id }, { code: ['This field may not be blank.'] }],
      [{ code: 'X', max_uses: 1, promo_code_pool_id: foreignPool.id }, { promo_code_pool_id: [`Invalid pk "${foreignPool.id}" - object does not exist.`] }],
      [{ code: 'X', max_uses: 1, promo_code_pool_id: 'nope' }, { promo_code_pool_id: ['Invalid pk "nope" - object does not exist.'] }],
    ] as [unknown, unknown][]) {
      const r = await t.post('/v1/promo-codes', body, A());
      expect({ status: r.status, body: r.body }).toEqual({ status: 400, body: errors });
    }
    expect(await counts()).toEqual(before);
  });

  it('deleting a pool deletes its codes, their uses and its offer links', async () => {
    const p = await pool();
    const [o] = await offers(1);
    await t.post(`/v1/promo-code-pools/${p.id}/offers`, { id: o }, A());
    const c = (await t.post('/v1/promo-codes', { code: `DEL${Date.now()}`, max_uses: 3, promo_code_pool_id: p.id }, A())).body;
    expect((await t.delete(`/v1/promo-code-pools/${p.id}`, B())).status).toBe(404);
    expect((await t.delete(`/v1/promo-code-pools/${p.id}`, A())).status).toBe(204);
    expect((await t.get(`/v1/promo-codes/${c.id}`, A())).status).toBe(404);
    const rows = await t.ds.query(`SELECT count(*)::int AS n FROM promo_code_pool_offers WHERE organization_id = $1 AND pool_id = $2`, [orgUuid(org), decodeId('promoCodePool', p.id)]);
    expect(rows[0].n).toBe(0);
    expect(encodeId('offer', decodeId('offer', o)!)).toBe(o);
  });
});
