import { INestApplicationContext } from '@nestjs/common';
import { loadConfig } from '../../src/core/config/config';
import { createWorker } from '../../src/worker';
import { startTestApp, TestApp } from '../support/app';
import { journey } from '../support/learner-journey';
import { dropRedisPrefix, Receiver, startReceiver, verifyStandardWebhook } from '../support/webhook-receiver';

jest.setTimeout(60_000);

/**
 * The whole commerce flow through the API alone (issue 11 item 7): a priced offer, checkout with a
 * promo code, payment pending, fulfil, the learner enrolled, the PURCHASE_FULFILLMENT webhook
 * delivered by a real worker with the purchase members and a valid signature, refund, the
 * enrollment inactive.
 */
describe('commerce flow end to end, with webhook delivery', () => {
  let t: TestApp;
  let worker: INestApplicationContext | null = null;
  let r: Receiver;

  beforeAll(async () => {
    t = await startTestApp({ ALLOW_PRIVATE_URLS: true });
    r = await startReceiver();
  });
  afterAll(async () => {
    await worker?.close();
    await r.close();
    await t.close();
    await dropRedisPrefix(t.config.REDIS_URL, t.config.REDIS_PREFIX);
  });

  it('offer -> checkout with a promo code -> fulfil -> enrolled -> event received -> refund -> enrollment inactive', async () => {
    const org = await t.newOrg();
    const key = { basic: org.api_key };
    const j = journey(t, org);
    const c = await j.course([{ title: 'Only lesson' }]);
    const offer = (await t.get(`/v1/domains/${org.domain_name}/published-courses/${c.publishedCourseId}`, key)).body.offer;
    expect((await t.patch(`/v1/offers/${offer.id}`, { price_cents: 4000 }, key)).status).toBe(200);
    const pool = await t.post('/v1/promo-code-pools', { name: 'Launch', starts_at: '2026-01-01T00:00:00Z', discount_type: 'PERCENT_OFF', percent_off: 25 }, key);
    expect(pool.status).toBe(201);
    expect((await t.post(`/v1/promo-code-pools/${pool.body.id}/offers`, { id: offer.id }, key)).status).toBe(201);
    const code = await t.post('/v1/promo-codes', { code: 'LAUNCH25', max_uses: 10, promo_code_pool_id: pool.body.id }, key);
    expect(code.status).toBe(201);

    const hook = await t.post('/v1/webhooks', { target_url: r.url }, key);
    expect(hook.status).toBe(201);

    const email = `shopper-${Date.now()}@example.test`;
    const buy = await t.post('/v1/purchases', { user: { email, first_name: 'Sam', last_name: 'Shopper' }, offer_id: offer.id, promo_code: 'LAUNCH25', payment_processor: 'STRIPE' }, key);
    expect(buy.status).toBe(201);
    expect(buy.body).toMatchObject({
      state: 'CREATED',
      offer_price_cents: 4000,
      promo_code: 'LAUNCH25',
      promo_code_percent_off: 25,
      promo_code_quantity: 1,
      promo_code_discount_cents: 1000,
      price_cents: 3000,
    });
    const p = buy.body;
    // an unpaid checkout counts no use (CONVENTIONS §11: one use per successful purchase)
    expect((await t.get(`/v1/promo-codes/${code.body.id}`, key)).body.use_count).toBe(0);

    expect((await t.patch(`/v1/purchases/${p.id}`, { state: 'PENDING' }, key)).status).toBe(200);
    const done = await t.post(`/v1/purchases/${p.id}/fulfill`, { state: 'SUCCESS', payment_processor_order_id: 'pi_123' }, key);
    expect(done.status).toBe(200);
    expect(done.body.purchase.state).toBe('SUCCESS');
    expect((await t.get(`/v1/promo-codes/${code.body.id}`, key)).body.use_count).toBe(1);

    const mine = await t.get(`/v1/users/${p.user.id}/published-courses/${c.publishedCourseId}`, key);
    expect(mine.status).toBe(200);
    const enrollments = await t.get(`/v1/domains/${org.domain_name}/published-courses/${c.publishedCourseId}/enrollments`, key);
    expect(enrollments.body.results).toEqual([expect.objectContaining({ active: true, user: expect.objectContaining({ id: p.user.id }) })]);

    worker = await createWorker(loadConfig(process.env, { ...t.config, WEBHOOK_RELAY_INTERVAL_MS: 100, WEBHOOK_RETRY_SCALE: 0.001 }));
    await worker.init();
    // DOMAIN_ENROLLMENT, COURSE_ENROLLMENT, PURCHASE_FULFILLMENT
    const got = await r.waitFor(3, 30_000);
    await new Promise((res) => setTimeout(res, 500));
    expect(r.received).toHaveLength(3);
    for (const g of got) expect(verifyStandardWebhook(hook.body.secret, g.headers, g.body)).toBe(true);
    const bodies = got.map((g) => JSON.parse(g.body));
    expect(bodies.map((b) => b.event_type).sort()).toEqual(['COURSE_ENROLLMENT', 'DOMAIN_ENROLLMENT', 'PURCHASE_FULFILLMENT']);
    const purchase = {
      id: p.id,
      purchase_price: '30.00',
      order_id: p.order_id,
      original_price: '40.00',
      offer_sku: offer.id,
      price_cents: 3000,
      currency_code: 'USD',
      state: 'SUCCESS',
      quantity: 1,
      purchased_at: p.purchased_at,
      payment_processor: 'STRIPE',
      payment_processor_order_id: 'pi_123',
      promo_code_id: code.body.id,
      promo_code: 'LAUNCH25',
      promo_code_price_cents: null,
      promo_code_percent_off: 25,
      promo_code_quantity: 1,
    };
    expect(bodies.find((b) => b.event_type === 'PURCHASE_FULFILLMENT')).toEqual({
      id: expect.stringMatching(/^evt/),
      event_type: 'PURCHASE_FULFILLMENT',
      timestamp: expect.any(String),
      user: { id: p.user.id, email, first_name: 'Sam', last_name: 'Shopper' },
      course: { id: c.courseId, published_course_id: c.publishedCourseId, title: expect.any(String), url: expect.stringContaining(org.domain_name) },
      purchase,
      domain: { id: expect.stringMatching(/^dom/), name: org.domain_name },
      domain_access_code: null,
      signup_fields: {},
    });
    expect(bodies.find((b) => b.event_type === 'COURSE_ENROLLMENT').purchase).toEqual(purchase);

    const refund = await t.patch(`/v1/purchases/${p.id}`, { state: 'REFUNDED' }, key);
    expect(refund.body).toMatchObject({ state: 'REFUNDED', refund_cents: 3000 });
    const after = await t.get(`/v1/domains/${org.domain_name}/published-courses/${c.publishedCourseId}/enrollments`, key);
    expect(after.body.results).toEqual([expect.objectContaining({ active: false })]);
    expect((await t.get(`/v1/promo-codes/${code.body.id}`, key)).body.use_count).toBe(0); // the refund gave the use back
  });
});
