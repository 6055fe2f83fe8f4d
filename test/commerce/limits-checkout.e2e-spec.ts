import { decodeId } from '../../src/core/ids/ids';
import type { CreatedOrg } from '../../src/modules/organizations/organizations.service';
import { startTestApp, TestApp } from '../support/app';
import { domainOf, orgUuid } from '../support/fixtures';
import { encodeId } from '../../src/core/ids/ids';
import { checkoutLimits } from '../../src/modules/commerce/checkout-limits';
import { journey } from '../support/learner-journey';

/**
 * The limits at checkout, through POST /v1/purchases (CONVENTIONS §11; docs/decisions/commerce-limits.md):
 * promo codes (active, pool window, pool offers, max_uses, single_use_per_user), training credits
 * (groups, offers, expiry, balance), license seats, their release on FAILED / CANCELLED / REFUNDED,
 * and the limits under parallel checkouts.
 */
describe('checkout limits through POST /v1/purchases', () => {
  let t: TestApp;
  let org: CreatedOrg;
  const A = () => ({ basic: org.api_key });
  let n = 0;
  const uniq = () => `${Date.now().toString(36)}${n++}`;

  /** A published course's offer, priced. */
  const offer = async (priceCents = 1000): Promise<string> => {
    const c = await journey(t, org).course([{}]);
    const id = (await t.get(`/v1/domains/${org.domain_name}/published-courses/${c.publishedCourseId}`, A())).body.offer.id;
    const r = await t.patch(`/v1/offers/${id}`, { price_cents: priceCents }, A());
    expect(r.status).toBe(200);
    return id;
  };
  const learner = async () => (await journey(t, org).learner()).id;
  const learners = async (k: number) => {
    const out: string[] = [];
    for (let i = 0; i < k; i++) out.push(await learner());
    return out;
  };
  const promo = async (offers: string[], pool: Record<string, unknown> = {}, code: Record<string, unknown> = {}) => {
    const p = await t.post('/v1/promo-code-pools', { name: `Pool ${uniq()}`, starts_at: '2026-01-01T00:00:00Z', discount_type: 'PERCENT_OFF', percent_off: 25, ...pool }, A());
    expect(p.status).toBe(201);
    if (offers.length) expect((await t.post(`/v1/promo-code-pools/${p.body.id}/offers`, offers.map((id) => ({ id })), A())).status).toBe(201);
    const c = await t.post('/v1/promo-codes', { code: `P${uniq()}`, max_uses: 10, promo_code_pool_id: p.body.id, ...code }, A());
    expect(c.status).toBe(201);
    return { pool: p.body, code: c.body };
  };
  const credits = async (body: Record<string, unknown>) => {
    const r = await t.post('/v1/training-credit-codes', { training_credit_code: `C${uniq()}`, ...body }, A());
    expect(r.status).toBe(201);
    return r.body;
  };
  const checkout = (user: string, offerId: string, extra: Record<string, unknown> = {}) => t.post('/v1/purchases', { user: { id: user }, offer_id: offerId, ...extra }, A());
  const useCount = async (codeId: string) => (await t.get(`/v1/promo-codes/${codeId}`, A())).body.use_count;
  const creditCode = async (id: string) => (await t.get(`/v1/training-credit-codes/${id}`, A())).body;
  const purchases = async () => (await t.ds.query(`SELECT count(*)::int AS n FROM purchases WHERE organization_id = $1`, [orgUuid(org)]))[0].n;
  const move = async (purchaseId: string, state: string) => {
    if (state !== 'REFUNDED') expect((await t.patch(`/v1/purchases/${purchaseId}`, { state: 'PENDING' }, A())).status).toBe(200);
    const r = state === 'REFUNDED' ? await t.patch(`/v1/purchases/${purchaseId}`, { state }, A()) : await t.post(`/v1/purchases/${purchaseId}/fulfill`, { state }, A());
    expect([200, 201]).toContain(r.status);
    return r;
  };

  beforeAll(async () => {
    t = await startTestApp();
    org = await t.newOrg();
  });
  afterAll(() => t.close());

  it('a promo code discounts its pool offers and takes one use; every refusal is a 400 on promo_code that charges and counts nothing', async () => {
    const [o1, o2] = [await offer(1000), await offer(1000)];
    const { code } = await promo([o1]);
    const user = await learner();
    const ok = await checkout(user, o1, { promo_code: code.code, quantity: 2 });
    expect(ok.status).toBe(201);
    expect(ok.body).toMatchObject({ state: 'CREATED', price_cents: 1500, promo_code: code.code, promo_code_percent_off: 25 });
    expect(await useCount(code.id)).toBe(1);

    const override = await promo([o1], { discount_type: 'PRICE_OVERRIDE', price_cents: 300, percent_off: undefined });
    const ov = await checkout(user, o1, { promo_code: override.code.code });
    expect(ov.body).toMatchObject({ price_cents: 300, promo_code_price_cents: 300, promo_code_percent_off: 0 });

    const inactiveCode = await promo([o1], {}, { active: false });
    const inactivePool = await promo([o1], { active: false });
    const future = await promo([o1], { starts_at: '2099-01-01T00:00:00Z' });
    const expired = await promo([o1], { starts_at: '2026-01-01T00:00:00Z', expires_at: '2026-02-01T00:00:00Z' });
    const noOffers = await promo([]);
    const spent = await promo([o1], {}, { max_uses: 0 });
    const before = await purchases();
    for (const [c, offerId, message] of [
      ['NOPE-NOT-A-CODE', o1, 'This promo code does not exist.'],
      [code.code.toLowerCase(), o1, 'This promo code does not exist.'],
      [inactiveCode.code.code, o1, 'This promo code is not active.'],
      [inactivePool.code.code, o1, 'This promo code is not active.'],
      [future.code.code, o1, 'This promo code is not valid yet.'],
      [expired.code.code, o1, 'This promo code has expired.'],
      [code.code, o2, 'This promo code does not apply to this offer.'],
      [noOffers.code.code, o1, 'This promo code does not apply to this offer.'],
      [spent.code.code, o1, 'This promo code has reached its maximum number of uses.'],
    ] as [string, string, string][]) {
      const r = await checkout(user, offerId, { promo_code: c });
      expect({ c, status: r.status, body: r.body }).toEqual({ c, status: 400, body: { promo_code: [message] } });
    }
    expect(await purchases()).toBe(before);
    for (const c of [inactiveCode, inactivePool, future, expired, noOffers, spent]) expect(await useCount(c.code.id)).toBe(0);
    expect(await useCount(code.id)).toBe(1);
  });

  it('FAILED, CANCELLED and REFUNDED give the use back, once; SUCCESS keeps it', async () => {
    const o = await offer(1000);
    const { code } = await promo([o], {}, { max_uses: 3 });
    const users = await learners(4);
    const [p1, p2, p3] = await Promise.all(users.slice(0, 3).map((u) => checkout(u, o, { promo_code: code.code })));
    expect(await useCount(code.id)).toBe(3);
    expect((await checkout(users[3], o, { promo_code: code.code })).status).toBe(400);

    await move(p1.body.id, 'FAILED');
    expect(await useCount(code.id)).toBe(2);
    await move(p2.body.id, 'CANCELLED');
    expect(await useCount(code.id)).toBe(1);
    // a failed purchase cannot move again: nothing is released twice
    expect((await t.post(`/v1/purchases/${p1.body.id}/fulfill`, { state: 'CANCELLED' }, A())).status).toBe(400);
    expect(await useCount(code.id)).toBe(1);
    await move(p3.body.id, 'SUCCESS');
    expect(await useCount(code.id)).toBe(1);
    await move(p3.body.id, 'REFUNDED');
    expect(await useCount(code.id)).toBe(0);
    expect((await t.patch(`/v1/purchases/${p3.body.id}`, { state: 'REFUNDED' }, A())).status).toBe(200);
    expect(await useCount(code.id)).toBe(0);
  });

  it('releaseForPurchase gives a held use and credits back exactly once, even called in parallel transactions', async () => {
    const o = await offer(1000);
    const { code } = await promo([o], {}, { max_uses: 5 });
    const credit = await credits({ credits_total: 5 });
    const r = await checkout(await learner(), o, { promo_code: code.code, training_credit_code: credit.training_credit_code });
    expect(r.body).toMatchObject({ state: 'CREATED', price_cents: 250 });
    expect(await useCount(code.id)).toBe(1);
    expect((await creditCode(credit.id)).credits_used).toBe(5);
    const purchaseUuid = decodeId('purchase', r.body.id)!;
    await Promise.all(Array.from({ length: 6 }, () => t.ds.transaction((m) => checkoutLimits.releaseForPurchase(m, orgUuid(org), purchaseUuid))));
    expect(await useCount(code.id)).toBe(0);
    expect((await creditCode(credit.id)).credits_used).toBe(0);
    await t.ds.transaction((m) => checkoutLimits.releaseForPurchase(m, orgUuid(org), purchaseUuid));
    expect(await useCount(code.id)).toBe(0);
    expect((await creditCode(credit.id)).credits_used).toBe(0);
  });

  it('single_use_per_user: one held use per user and pool (parallel too); released uses free the user again', async () => {
    const o = await offer(1000);
    const { pool, code } = await promo([o], { single_use_per_user: true }, { max_uses: 100 });
    const second = await t.post('/v1/promo-codes', { code: `S${uniq()}`, max_uses: 100, promo_code_pool_id: pool.id }, A());
    const [u1, u2] = await learners(2);
    const parallel = await Promise.all(Array.from({ length: 10 }, () => checkout(u1, o, { promo_code: code.code })));
    expect(parallel.filter((r) => r.status === 201)).toHaveLength(1);
    for (const r of parallel.filter((x) => x.status !== 201)) expect(r.body).toEqual({ promo_code: ['This promo code can be used only once per user.'] });
    // any code of the same pool
    expect((await checkout(u1, o, { promo_code: second.body.code })).body).toEqual({ promo_code: ['This promo code can be used only once per user.'] });
    expect((await checkout(u2, o, { promo_code: code.code })).status).toBe(201);
    expect(await useCount(code.id)).toBe(2);
    await move(parallel.find((r) => r.status === 201)!.body.id, 'CANCELLED');
    expect((await checkout(u1, o, { promo_code: second.body.code })).status).toBe(201);
  });

  it('30 parallel checkouts at a code with 5 uses left: exactly 5 succeed', async () => {
    const o = await offer(2000);
    const { code } = await promo([o], {}, { max_uses: 7 });
    const early = await learners(2);
    for (const u of early) expect((await checkout(u, o, { promo_code: code.code })).status).toBe(201);
    expect(await useCount(code.id)).toBe(2);
    const users = await learners(30);
    const before = await purchases();
    const results = await Promise.all(users.map((u) => checkout(u, o, { promo_code: code.code })));
    expect(results.filter((r) => r.status === 201)).toHaveLength(5);
    expect(results.filter((r) => r.status === 400)).toHaveLength(25);
    for (const r of results.filter((x) => x.status === 400)) expect(r.body).toEqual({ promo_code: ['This promo code has reached its maximum number of uses.'] });
    expect(results.filter((r) => r.status >= 500)).toHaveLength(0);
    expect(await useCount(code.id)).toBe(7);
    expect(await purchases()).toBe(before + 5);
    const [{ held }] = await t.ds.query(`SELECT count(*)::int AS held FROM promo_code_uses WHERE organization_id = $1 AND promo_code_id = $2 AND released_at IS NULL`, [
      orgUuid(org),
      decodeId('promoCode', code.id),
    ]);
    expect(held).toBe(7);
  });

  it('training credits pay up to the balance, restricted to their groups and offers; parallel checkouts never spend past the balance', async () => {
    const [o1, o2] = [await offer(300), await offer(300)];
    const [member, outsider] = await learners(2);
    const g = await t.post('/v1/groups', { name: `G ${uniq()}` }, A());
    expect((await t.post(`/v1/groups/${g.body.id}/users`, { user: { id: member } }, A())).status).toBeLessThan(300);
    const restricted = await credits({ credits_total: 100, student_groups: [g.body.id], offers: [o1] });
    const ok = await checkout(member, o1, { training_credit_code: restricted.training_credit_code });
    expect(ok.status).toBe(201);
    expect(ok.body).toMatchObject({ price_cents: 0, state: 'SUCCESS' });
    expect((await creditCode(restricted.id)).credits_used).toBe(3);

    const expiredCode = await credits({ credits_total: 10, expiration_date: '2026-01-02T00:00:00Z' });
    const empty = await credits({ credits_total: 0 });
    const before = await purchases();
    for (const [user, offerId, value, message] of [
      [outsider, o1, restricted.training_credit_code, 'This training credit code is not available to this user.'],
      [member, o2, restricted.training_credit_code, 'This training credit code does not apply to this offer.'],
      [member, o1, expiredCode.training_credit_code, 'This training credit code has expired.'],
      [member, o1, empty.training_credit_code, 'This training credit code has no credits left.'],
      [member, o1, 'NO-SUCH-CODE', 'This training credit code does not exist.'],
    ] as string[][]) {
      const r = await checkout(user, offerId, { training_credit_code: value });
      expect({ value, status: r.status, body: r.body }).toEqual({ value, status: 400, body: { training_credit_code: [message] } });
    }
    expect(await purchases()).toBe(before);
    expect((await creditCode(restricted.id)).credits_used).toBe(3);

    // a balance of 10 credits against 8 parallel 3.00 checkouts: 3 full, 1 partial (1 credit), 4 refused
    const balance = await credits({ credits_total: 10 });
    const users = await learners(8);
    const results = await Promise.all(users.map((u) => checkout(u, o1, { training_credit_code: balance.training_credit_code })));
    expect(results.filter((r) => r.status >= 500)).toHaveLength(0);
    const okOnes = results.filter((r) => r.status === 201);
    expect(okOnes).toHaveLength(4);
    expect(okOnes.map((r) => r.body.price_cents).sort((a, b) => a - b)).toEqual([0, 0, 0, 200]);
    for (const r of results.filter((x) => x.status === 400)) expect(r.body).toEqual({ training_credit_code: ['This training credit code has no credits left.'] });
    expect(await creditCode(balance.id)).toMatchObject({ credits_used: 10, credits_remaining: 0 });
    const [{ cents }] = await t.ds.query(`SELECT sum(credits_cents)::int AS cents FROM purchases WHERE organization_id = $1 AND training_credit_code_id = $2`, [
      orgUuid(org),
      decodeId('trainingCreditCode', balance.id),
    ]);
    expect(cents).toBe(1000);

    // the partial one (price 2.00 left) cancelled: its credit comes back, once
    const partial = okOnes.find((r) => r.body.price_cents === 200)!;
    await move(partial.body.id, 'CANCELLED');
    expect((await creditCode(balance.id)).credits_used).toBe(9);
    // a free (fully paid) one refunded: its 3 credits come back
    const full = okOnes.find((r) => r.body.price_cents === 0)!;
    await move(full.body.id, 'REFUNDED');
    expect((await creditCode(balance.id)).credits_used).toBe(6);
  });

  it('a student holding an active seat checks out the package offers at 0, fulfilled at once; not other offers, not after deactivation', async () => {
    const [o1, o2] = [await offer(5000), await offer(5000)];
    const domainId = encodeId('domain', (await domainOf(t, org)).uuid);
    const pkg = (await t.post('/v1/license-packages', { domain_id: domainId, name: `Pkg ${uniq()}`, license_count: 1, offers: [o1] }, A())).body;
    const [seated, other] = await learners(2);
    expect((await t.post(`/v1/license-packages/${pkg.id}/students`, { student: { id: seated } }, A())).status).toBe(201);
    const free = await checkout(seated, o1);
    expect(free.status).toBe(201);
    expect(free.body).toMatchObject({ price_cents: 0, state: 'SUCCESS' });
    expect((await checkout(seated, o2)).body).toMatchObject({ price_cents: 5000, state: 'CREATED' });
    expect((await checkout(other, o1)).body).toMatchObject({ price_cents: 5000, state: 'CREATED' });
    // an expired package grants nothing
    await t.patch(`/v1/license-packages/${pkg.id}`, { start_date: '2026-01-01T00:00:00Z', end_date: '2026-01-02T00:00:00Z' }, A());
    expect((await checkout(seated, o1)).body).toMatchObject({ price_cents: 5000 });
    await t.patch(`/v1/license-packages/${pkg.id}`, { end_date: null }, A());
    expect((await checkout(seated, o1)).body).toMatchObject({ price_cents: 0 });
    await t.patch(`/v1/license-packages/${pkg.id}/students/${seated}`, { active: false }, A());
    expect((await checkout(seated, o1)).body).toMatchObject({ price_cents: 5000 });
  });

  it('deleting a pool or a code clears the code on the purchases that used it and keeps their amounts', async () => {
    const o = await offer(1000);
    const { pool, code } = await promo([o]);
    const other = await promo([o]);
    const user = await learner();
    const p1 = await checkout(user, o, { promo_code: code.code });
    const p2 = await checkout(user, o, { promo_code: other.code.code });
    expect((await t.delete(`/v1/promo-code-pools/${pool.id}`, A())).status).toBe(204);
    expect((await t.get(`/v1/purchases/${p1.body.id}`, A())).body).toMatchObject({ promo_code: null, price_cents: 750, promo_code_percent_off: 25 });
    expect((await t.delete(`/v1/promo-codes/${other.code.id}`, A())).status).toBe(204);
    expect((await t.get(`/v1/purchases/${p2.body.id}`, A())).body).toMatchObject({ promo_code: null, price_cents: 750 });
    // releasing a purchase whose code is gone releases nothing and fails nothing
    await move(p1.body.id, 'CANCELLED');
  });
});
