import type { CreatedOrg } from '../../src/modules/organizations/organizations.service';
import { startTestApp, TestApp } from '../support/app';
import { orgUuid } from '../support/fixtures';
import { journey } from '../support/learner-journey';

/**
 * Checkout amounts past what a purchase holds (its cents are integers up to 2^31 - 1, as the
 * published Purchase bounds them): each member is within its own bounds, the sum or product is
 * not. A 400 naming the member, and nothing written (no purchase, no buyer, no promo code use),
 * instead of the generic "value that cannot be stored" of an out-of-range database value.
 */
describe('POST /v1/purchases: totals past the largest amount', () => {
  let t: TestApp;
  let org: CreatedOrg;
  const A = () => ({ basic: org.api_key });
  const MAX = 2147483647;
  const count = async (table: string) => Number((await t.ds.query(`SELECT count(*)::int AS n FROM ${table} WHERE organization_id = $1`, [orgUuid(org)]))[0].n);

  beforeAll(async () => {
    t = await startTestApp();
    org = await t.newOrg();
  });
  afterAll(() => t.close());

  it('price x quantity over the limit is 400 on quantity; price + tax over it is 400 on tax_price_cents; nothing is written', async () => {
    const c = await journey(t, org).course([{}]);
    const offer = (await t.get(`/v1/domains/${org.domain_name}/published-courses/${c.publishedCourseId}`, A())).body.offer.id;
    expect((await t.patch(`/v1/offers/${offer}`, { price_cents: 50_000_000 }, A())).status).toBe(200);
    const pool = await t.post('/v1/promo-code-pools', { name: 'Ten', starts_at: '2026-01-01T00:00:00Z', discount_type: 'PERCENT_OFF', percent_off: 10 }, A());
    expect(pool.status).toBe(201);
    expect((await t.post(`/v1/promo-code-pools/${pool.body.id}/offers`, { id: offer }, A())).status).toBe(201);
    const code = await t.post('/v1/promo-codes', { code: 'TEN', max_uses: 5, promo_code_pool_id: pool.body.id }, A());
    expect(code.status).toBe(201);
    const purchases = await count('purchases');
    const users = await count('users');

    // 50,000,000 x 43 = 2,150,000,000 > 2^31 - 1 (the quantity is within 1..100)
    const tooMany = await t.post('/v1/purchases', { user: { email: 'buyer-1@example.test' }, offer_id: offer, quantity: 43, promo_code: 'TEN' }, A());
    expect(tooMany.status).toBe(400);
    expect(Object.keys(tooMany.body)).toEqual(['quantity']);
    expect(tooMany.body.quantity[0]).toMatch(/exceeds the largest amount/);

    // 45,000,000 after the promo code + a tax within its own bounds, together past the limit
    const taxed = await t.post('/v1/purchases', { user: { email: 'buyer-2@example.test' }, offer_id: offer, promo_code: 'TEN', tax_price_cents: MAX - 1_000 }, A());
    expect(taxed.status).toBe(400);
    expect(Object.keys(taxed.body)).toEqual(['tax_price_cents']);
    expect(taxed.body.tax_price_cents[0]).toMatch(/exceeds the largest amount/);

    expect(await count('purchases')).toBe(purchases);
    expect(await count('users')).toBe(users);
    expect((await t.get(`/v1/promo-codes/${code.body.id}`, A())).body.use_count).toBe(0);

    // at the limit exactly it is a purchase
    const edge = await t.post('/v1/purchases', { user: { email: 'buyer-3@example.test' }, offer_id: offer, tax_price_cents: MAX - 50_000_000 }, A());
    expect(edge.status).toBe(201);
    expect(edge.body.price_cents).toBe(MAX);
  });
});
