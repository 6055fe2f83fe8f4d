import { decodeId } from '../../src/core/ids/ids';
import type { CreatedOrg } from '../../src/modules/organizations/organizations.service';
import { startTestApp, TestApp } from '../support/app';
import { countQueries, orgUuid } from '../support/fixtures';
import { journey } from '../support/learner-journey';

jest.setTimeout(120_000);

/**
 * Enrollments made through the enrollment operations record their purchase (issue 11 item 2,
 * docs/decisions/commerce.md "Enrollments made without checkout"): a $0 SUCCESS purchase with
 * payment_processor NONE, in the enrollment's transaction, carried by its COURSE_ENROLLMENT /
 * PATH_ENROLLMENT event as the platform's real events show (webhook-event-samples.md).
 */
describe('the purchase of an enrollment made without checkout', () => {
  let t: TestApp;
  let org: CreatedOrg;
  let token: string;
  const key = () => ({ basic: org.api_key });
  const dn = () => org.domain_name;
  const purchasesOf = async (userId: string) =>
    (await t.ds.query(`SELECT id, price_cents, state FROM purchases WHERE organization_id = $1 AND user_id = $2 ORDER BY created_at`, [orgUuid(org), decodeId('student', userId)])) as {
      id: string;
      price_cents: number;
      state: string;
    }[];
  const events = async (type: string) =>
    (await t.ds.query(`SELECT payload FROM outbox_events WHERE organization_id = $1 AND event_type = $2 ORDER BY seq`, [orgUuid(org), type])).map((r: any) => r.payload);
  const offerOf = async (url: string) => (await t.get(url, key())).body.offer as { id: string };
  /** the purchase member as the platform sends it for a free registration (webhook-event-samples.md) */
  const freeMember = (over: Record<string, unknown> = {}) => ({
    id: expect.stringMatching(/^pur[0-9a-z]{25}$/),
    purchase_price: '0.00',
    order_id: expect.stringMatching(/^[A-HJ-NP-Z2-9]{8}$/),
    original_price: '0.00',
    offer_sku: expect.any(String),
    price_cents: 0,
    currency_code: 'USD',
    state: 'SUCCESS',
    quantity: 1,
    purchased_at: expect.stringMatching(/Z$/),
    payment_processor: 'NONE',
    payment_processor_order_id: '',
    promo_code_id: null,
    promo_code: null,
    promo_code_price_cents: null,
    promo_code_percent_off: null,
    promo_code_quantity: 0,
    ...over,
  });

  beforeAll(async () => {
    t = await startTestApp();
    org = await t.newOrg();
    token = await t.tokenFor(org);
  });
  afterAll(() => t.close());

  it('/v1 published-course enrollment: one $0 NONE purchase, in the COURSE_ENROLLMENT event (read back through the sample operation) and on /v1/purchases; a repeated create records none', async () => {
    const j = journey(t, org);
    const c = await j.course([{}]);
    const offer = await offerOf(`/v1/domains/${dn()}/published-courses/${c.publishedCourseId}`);
    const u = await j.learner();
    const res = await t.post(`/v1/domains/${dn()}/published-courses/${c.publishedCourseId}/enrollments`, { user: { id: u.id } }, key());
    expect(res.status).toBe(201);

    const sample = await t.get('/v1/webhooks/sample-course-enrollment', key());
    expect(sample.status).toBe(200);
    const ev = sample.body.results[0];
    expect(ev.user.id).toBe(u.id);
    expect(ev.purchase).toEqual(freeMember({ offer_sku: offer.id }));
    expect(Object.keys(ev)).toEqual(expect.arrayContaining(['user', 'course', 'purchase', 'domain', 'domain_access_code', 'signup_fields']));

    const rows = await purchasesOf(u.id);
    expect(rows).toHaveLength(1);
    const pur = await t.get(`/v1/purchases/${ev.purchase.id}`, key());
    expect(pur.status).toBe(200);
    expect(pur.body).toMatchObject({
      id: ev.purchase.id,
      user: { id: u.id, email: u.email },
      state: 'SUCCESS',
      payment_processor: 'NONE',
      order_id: ev.purchase.order_id,
      price_cents: 0,
      quantity: 1,
      offer_id: offer.id,
      offer_price_cents: 0,
      tax_price_cents: null,
      purchased_at: ev.purchase.purchased_at,
      refund_cents: null,
    });

    // the enrollment shows the purchase's block (create, read, list)
    const block = {
      order_id: ev.purchase.order_id,
      offer_price: { amount: '0.00', currency_code: 'USD' },
      purchase_price: { amount: '0.00', currency_code: 'USD' },
      quantity: 1,
      purchase_state: 'SUCCESS',
      payment_processor: 'NONE',
      purchase_id: ev.purchase.id,
      purchased_at: ev.purchase.purchased_at,
      tax_price_cents: null,
    };
    expect(res.body.purchase).toEqual(block);
    const base = `/v1/domains/${dn()}/published-courses/${c.publishedCourseId}/enrollments`;
    expect((await t.get(`${base}/${res.body.id}`, key())).body.purchase).toEqual(block);
    expect((await t.get(base, key())).body.results.find((e: any) => e.id === res.body.id).purchase).toEqual(block);

    // the same create again answers the existing enrollment: no second purchase, no second event
    const again = await t.post(`/v1/domains/${dn()}/published-courses/${c.publishedCourseId}/enrollments`, { user: { id: u.id } }, key());
    expect(again.status).toBe(200);
    expect(await purchasesOf(u.id)).toHaveLength(1);
    expect((await events('COURSE_ENROLLMENT')).filter((e: any) => e.user.id === u.id)).toHaveLength(1);
  });

  it('a priced offer: the administrative enrollment is no sale, still $0 NONE; the list price shows as original_price; a refund through /v1/purchases deactivates the enrollment', async () => {
    const j = journey(t, org);
    const c = await j.course([{}]);
    const offer = await offerOf(`/v1/domains/${dn()}/published-courses/${c.publishedCourseId}`);
    expect((await t.patch(`/v1/offers/${offer.id}`, { price_cents: 4000 }, key())).status).toBe(200);
    const u = await j.learner();
    const enr = await j.enroll(u.id, c.publishedCourseId, { enrolled_at: '2026-02-03T04:05:06Z' });
    const ev = (await events('COURSE_ENROLLMENT')).find((e: any) => e.user.id === u.id);
    expect(ev.purchase).toEqual(freeMember({ offer_sku: offer.id, original_price: '40.00', purchased_at: '2026-02-03T04:05:06.000Z' }));
    const pur = await t.get(`/v1/purchases/${ev.purchase.id}`, key());
    expect(pur.body).toMatchObject({
      price_cents: 0,
      offer_price_cents: 4000,
      original_price_cents: 4000,
      promo_code_discount_cents: 0,
      state: 'SUCCESS',
      status_msg: expect.stringContaining('no charge'),
    });

    const refund = await t.patch(`/v1/purchases/${ev.purchase.id}`, { state: 'REFUNDED' }, key());
    expect(refund.status).toBe(200);
    expect(refund.body).toMatchObject({ state: 'REFUNDED', refund_cents: 0 });
    const after = await t.get(`/v1/domains/${dn()}/published-courses/${c.publishedCourseId}/enrollments/${enr.id}`, key());
    expect(after.body.active).toBe(false);
  });

  it('a checkout fulfilment records only its own purchase (no extra $0 one)', async () => {
    const j = journey(t, org);
    const c = await j.course([{}]);
    const offer = await offerOf(`/v1/domains/${dn()}/published-courses/${c.publishedCourseId}`);
    const u = await j.learner();
    const buy = await t.post('/v1/purchases', { user: { id: u.id }, offer_id: offer.id }, key());
    expect(buy.status).toBe(201);
    expect(buy.body.state).toBe('SUCCESS');
    expect(await purchasesOf(u.id)).toHaveLength(1);
    const ev = (await events('COURSE_ENROLLMENT')).find((e: any) => e.user.id === u.id);
    expect(ev.purchase.id).toBe(buy.body.id);
    // the enrollment the checkout made shows that purchase's block
    const list = await t.get(`/v1/domains/${dn()}/published-courses/${c.publishedCourseId}/enrollments`, key());
    expect(list.body.results).toEqual([expect.objectContaining({ purchase: expect.objectContaining({ purchase_id: buy.body.id, order_id: buy.body.order_id, payment_processor: 'NONE' }) })]);
  });

  it('/v1 published-course enrollment create with a declared purchase records it as declared; a bad one is a 400 that writes nothing', async () => {
    const j = journey(t, org);
    const c = await j.course([{}]);
    const base = `/v1/domains/${dn()}/published-courses/${c.publishedCourseId}/enrollments`;
    const u = await j.learner();
    const res = await t.post(base, { user: { id: u.id }, purchase: { purchase_price: { amount: '12.00', currency_code: 'USD' }, purchase_state: 'SUCCESS' } }, key());
    expect(res.status).toBe(201);
    expect(res.body.purchase).toMatchObject({
      purchase_price: { amount: '12.00', currency_code: 'USD' },
      offer_price: { amount: '0.00', currency_code: 'USD' },
      purchase_state: 'SUCCESS',
      payment_processor: 'NONE',
    });
    const ev = (await events('COURSE_ENROLLMENT')).find((e: any) => e.user.id === u.id);
    expect(ev.purchase).toEqual(freeMember({ offer_sku: expect.any(String), purchase_price: '12.00', original_price: '12.00', price_cents: 1200 }));
    const v = await j.learner();
    for (const purchase of [{ purchase_state: 'PAID' }, { purchase_price: { amount: 'x' } }, 'nope', { purchased_at: 'yesterday' }]) {
      const bad = await t.post(base, { user: { id: v.id }, purchase }, key());
      expect([JSON.stringify(purchase), bad.status]).toEqual([JSON.stringify(purchase), 400]);
      expect(JSON.stringify(bad.body)).toContain('purchase');
    }
    expect(await purchasesOf(v.id)).toHaveLength(0);
    expect((await t.get(base, key())).body.results.filter((e: any) => e.user.id === v.id)).toHaveLength(0);
  });

  it("the enrollment list reads every page's purchases in one query (a page of 60 sends as many statements as a page of 1)", async () => {
    const j = journey(t, org);
    const c = await j.course([{}]);
    const emails = Array.from({ length: 60 }, (_, i) => `list-free-${i}-${Date.now()}@example.test`);
    expect((await t.post(`/v1/domains/${dn()}/users/bulk-create`, { users: emails.map((email) => ({ email })) }, key())).status).toBe(200);
    const bulk = await t.post('/v2/enrollments/', { published_course_id: c.publishedCourseId, data: emails.map((email) => ({ type: 'enrollments', attributes: { email } })) }, { token });
    expect(bulk.body.summary.succeeded).toBe(60);
    const base = `/v1/domains/${dn()}/published-courses/${c.publishedCourseId}/enrollments`;
    await t.get(`${base}?page_size=1`, key()); // warm
    const one = await countQueries(() => t.get(`${base}?page_size=1`, key()));
    const many = await countQueries(() => t.get(`${base}?page_size=60`, key()));
    expect(many.result.body.results).toHaveLength(60);
    for (const e of many.result.body.results) expect(e.purchase).toMatchObject({ purchase_price: { amount: '0.00', currency_code: 'USD' }, payment_processor: 'NONE' });
    expect(new Set(many.result.body.results.map((e: any) => e.purchase.purchase_id)).size).toBe(60);
    expect(many.count).toBe(one.count);
  });

  it('/v1 published-path enrollment: the purchase block on the enrollment and in PATH_ENROLLMENT (read back through the sample operation)', async () => {
    const j = journey(t, org);
    const pp = await j.path([]);
    const ppUrl = `/v1/domains/${dn()}/published-paths/${pp.id}`;
    const offer = await offerOf(ppUrl);
    const u = await j.learner();
    const res = await t.post(`${ppUrl}/published-path-enrollments`, { user: { id: u.id } }, key());
    expect(res.status).toBe(201);
    const sample = await t.get('/v1/webhooks/sample-path-enrollment', key());
    const ev = sample.body.results[0];
    expect(ev.user.id).toBe(u.id);
    expect(ev.purchase).toEqual(freeMember({ offer_sku: offer.id }));
    const block = {
      order_id: ev.purchase.order_id,
      offer_price: { amount: '0.00', currency_code: 'USD' },
      purchase_price: { amount: '0.00', currency_code: 'USD' },
      quantity: 1,
      purchase_state: 'SUCCESS',
      payment_processor: 'NONE',
      purchase_id: ev.purchase.id,
      purchased_at: ev.purchase.purchased_at,
      tax_price_cents: null,
    };
    expect(res.body.purchase).toEqual(block);
    expect((await t.get(`${ppUrl}/published-path-enrollments/${res.body.id}`, key())).body.purchase).toEqual(block);
    expect(await purchasesOf(u.id)).toHaveLength(1);
    // idempotent create: the same enrollment, no second purchase
    expect((await t.post(`${ppUrl}/published-path-enrollments`, { user: { id: u.id } }, key())).status).toBe(200);
    expect(await purchasesOf(u.id)).toHaveLength(1);
  });

  it('/v1 plan enrollment: $0 NONE by default; a purchase the body declares is recorded as declared; an amount past the column is a 400 that writes nothing', async () => {
    const j = journey(t, org);
    const plan = await t.post(`/v1/domains/${dn()}/plan`, { name: `Plan ${Date.now()}`, hidden: false, short_description: null }, key());
    expect(plan.status).toBe(201);
    const url = `/v1/domains/${dn()}/plan/${plan.body.id}/plan-enrollments`;
    expect((await t.patch(`/v1/offers/${plan.body.offer.id}`, { price_cents: 9900 }, key())).status).toBe(200);

    const a = await j.learner();
    const free = await t.post(url, { user: { id: a.id } }, key());
    expect(free.status).toBe(201);
    expect(free.body.purchase).toMatchObject({
      purchase_price: { amount: '0.00', currency_code: 'USD' },
      offer_price: { amount: '99.00', currency_code: 'USD' },
      purchase_state: 'SUCCESS',
      payment_processor: 'NONE',
      quantity: 1,
    });
    const freeRow = await t.get(`/v1/purchases/${free.body.purchase.purchase_id}`, key());
    expect(freeRow.body).toMatchObject({ price_cents: 0, offer_price_cents: 9900, offer_id: plan.body.offer.id, payment_processor: 'NONE', state: 'SUCCESS' });

    const b = await j.learner();
    const declared = { purchase_price: { amount: '25.50', currency_code: 'eur' }, purchase_state: 'SUCCESS', purchased_at: '2026-05-01T10:00:00Z', tax_price_cents: 120 };
    const paid = await t.post(url, { user: { id: b.id }, purchase: declared }, key());
    expect(paid.status).toBe(201);
    expect(paid.body.purchase).toMatchObject({
      purchase_price: { amount: '25.50', currency_code: 'EUR' },
      purchase_state: 'SUCCESS',
      purchased_at: '2026-05-01T10:00:00.000Z',
      tax_price_cents: 120,
      payment_processor: 'NONE',
      purchase_id: expect.stringMatching(/^pur/),
      order_id: expect.stringMatching(/^[A-Z2-9]{8}$/),
    });
    const paidRow = await t.get(`/v1/purchases/${paid.body.purchase.purchase_id}`, key());
    expect(paidRow.body).toMatchObject({
      price_cents: 2550,
      currency_code: 'EUR',
      tax_price_cents: 120,
      state: 'SUCCESS',
      purchased_at: '2026-05-01T10:00:00.000Z',
      payment_processor: 'NONE',
      status_msg: '',
    });

    const c = await j.learner();
    const tooMuch = await t.post(url, { user: { id: c.id }, purchase: { purchase_price: { amount: '9999999999.99', currency_code: 'USD' } } }, key());
    expect(tooMuch.status).toBe(400);
    expect(JSON.stringify(tooMuch.body)).toContain('purchase');
    expect(await purchasesOf(c.id)).toHaveLength(0);
    expect((await t.get(url, key())).body.results.filter((e: any) => e.user.id === c.id)).toHaveLength(0);
  });

  it('/v2 bulk-enroll: every new enrollment its own $0 purchase in its event, set-wise (a batch of 100 sends as many statements as a batch of 1); a reactivation records none', async () => {
    const j = journey(t, org);
    const c = await j.course([{}]);
    const offer = await offerOf(`/v1/domains/${dn()}/published-courses/${c.publishedCourseId}`);
    const emails = Array.from({ length: 102 }, (_, i) => `bulk-free-${i}-${Date.now()}@example.test`);
    const joined = await t.post(`/v1/domains/${dn()}/users/bulk-create`, { users: emails.map((email) => ({ email })) }, key());
    expect(joined.status).toBe(200);
    const bulk = (list: string[]) => t.post('/v2/enrollments/', { published_course_id: c.publishedCourseId, data: list.map((email) => ({ type: 'enrollments', attributes: { email } })) }, { token });
    expect((await bulk([emails[101]])).status).toBe(200); // warm the token and caches

    const before = (await events('COURSE_ENROLLMENT')).length;
    const one = await countQueries(() => bulk([emails[0]]));
    expect(one.result.status).toBe(200);
    const hundred = await countQueries(() => bulk(emails.slice(1, 101)));
    expect(hundred.result.status).toBe(200);
    expect(hundred.result.body.summary).toEqual({ total: 100, succeeded: 100, failed: 0 });
    expect(hundred.count).toBe(one.count);
    expect(hundred.statements.filter((s) => /INSERT INTO purchases/.test(s))).toHaveLength(1);

    const evs = (await events('COURSE_ENROLLMENT')).slice(before);
    expect(evs).toHaveLength(101);
    for (const e of evs) expect(e.purchase).toEqual(freeMember({ offer_sku: offer.id }));
    expect(new Set(evs.map((e: any) => e.purchase.id)).size).toBe(101);
    const [{ n }] = await t.ds.query(`SELECT count(*)::int AS n FROM purchases WHERE organization_id = $1 AND offer_id = $2`, [orgUuid(org), decodeId('offer', offer.id)]);
    expect(n).toBe(102);
    // each event's purchase is the one of its user
    const sample = evs[evs.length - 1];
    expect((await t.get(`/v1/purchases/${sample.purchase.id}`, key())).body.user.id).toBe(sample.user.id);

    // deactivate one enrollment then bulk-enroll it again: reactivated, no new registration, no purchase
    const enrId = hundred.result.body.data[0].id;
    expect((await t.patch('/v2/enrollments/', { data: [{ type: 'enrollments', id: enrId, attributes: { active: false } }] }, { token })).status).toBe(200);
    const re = await bulk([emails[1]]);
    expect(re.status).toBe(200);
    expect(re.body.data[0].id).toBe(enrId);
    const [{ n: after }] = await t.ds.query(`SELECT count(*)::int AS n FROM purchases WHERE organization_id = $1 AND offer_id = $2`, [orgUuid(org), decodeId('offer', offer.id)]);
    expect(after).toBe(102);
  });
});
