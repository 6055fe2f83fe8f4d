import { decodeId } from '../../src/core/ids/ids';
import type { CreatedOrg } from '../../src/modules/organizations/organizations.service';
import { startTestApp, TestApp } from '../support/app';
import { orgUuid } from '../support/fixtures';
import { journey } from '../support/learner-journey';
import { drfFlat } from '../support/drf';

/** Checkout and purchases (CONVENTIONS §11): prices, the state machine, fulfilment once, refunds, bad input. */
describe('/v1 purchases', () => {
  let t: TestApp;
  let org: CreatedOrg;
  let other: CreatedOrg;
  const A = () => ({ basic: org.api_key });
  let n = 0;
  const uniq = () => `${Date.now().toString(36)}${n++}`;

  const course = async () => journey(t, org).course([{}]);
  const offerOf = async (publishedCourseId: string, priceCents: number | null) => {
    const id = (await t.get(`/v1/domains/${org.domain_name}/published-courses/${publishedCourseId}`, A())).body.offer.id;
    if (priceCents !== null) expect((await t.patch(`/v1/offers/${id}`, { price_cents: priceCents }, A())).status).toBe(200);
    return id as string;
  };
  const learner = async () => (await journey(t, org).learner()).id;
  const checkout = (body: Record<string, unknown>, auth = A()) => t.post('/v1/purchases', body, auth);
  const count = async (table: string) => Number((await t.ds.query(`SELECT count(*)::int AS n FROM ${table} WHERE organization_id = $1`, [orgUuid(org)]))[0].n);
  const enrollments = async (userId: string, publishedCourseId: string) =>
    (await t.ds.query(`SELECT id, active FROM enrollments WHERE organization_id = $1 AND user_id = $2 AND published_course_id = $3`, [
      orgUuid(org),
      decodeId('student', userId),
      decodeId('publishedCourse', publishedCourseId),
    ])) as { id: string; active: boolean }[];
  const events = async (type: string) =>
    (await t.ds.query(`SELECT payload FROM outbox_events WHERE organization_id = $1 AND event_type = $2 ORDER BY created_at`, [orgUuid(org), type])).map((r: any) => r.payload);

  beforeAll(async () => {
    t = await startTestApp();
    org = await t.newOrg();
    other = await t.newOrg();
  });
  afterAll(() => t.close());

  it('checkout answers 201 with every published Purchase member computed, state CREATED, nothing granted yet', async () => {
    const c = await course();
    const offer = await offerOf(c.publishedCourseId, 2500);
    const user = await learner();
    const res = await checkout({ user: { id: user }, offer_id: offer, quantity: 3, tax_price_cents: 150, payment_processor: 'STRIPE', payment_processor_order_id: 'ch_1' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^pur[0-9a-z]{25}$/),
      user: { id: user, email: expect.any(String), first_name: 'Ada', last_name: 'Lovelace', full_name: 'Ada Lovelace' },
      state: 'CREATED',
      status_msg: '',
      purchased_at: expect.any(String),
      refunded_at: null,
      refund_cents: null,
      payment_processor: 'STRIPE',
      order_id: expect.stringMatching(/^[A-Z0-9]{8}$/),
      price_cents: 7650,
      quantity: 3,
      offer_id: offer,
      offer_sku: offer,
      offer_description: expect.any(String),
      offer_price_cents: 2500,
      promo_code_quantity: 0,
      tax_price_cents: 150,
      payment_processor_order_id: 'ch_1',
      payment_processor_response_data: '',
      currency_code: 'USD',
      original_price_cents: 7500,
      promo_code_discount_cents: 0,
      group_discount_percent: null,
      group_discount_cents: 0,
      training_credit_code: null,
      training_credits_cents: 0,
      license_package_id: null,
    });
    expect(await enrollments(user, c.publishedCourseId)).toEqual([]);
    expect((await t.get(`/v1/purchases/${res.body.id}`, A())).body).toEqual(res.body);
    // defaults: quantity 1, tax 0, processor NONE
    const d = await checkout({ user: { id: user }, offer_id: offer });
    expect(d.body).toMatchObject({ quantity: 1, tax_price_cents: 0, payment_processor: 'NONE', price_cents: 2500, payment_processor_order_id: '' });
  });

  it('a new buyer by email is created (students); the best group discount_percent of the buyer applies', async () => {
    const c = await course();
    const offer = await offerOf(c.publishedCourseId, 1999);
    const email = `buyer-${uniq()}@example.test`;
    const res = await checkout({ user: { email, first_name: 'Grace', last_name: 'Hopper' }, offer_id: offer });
    expect(res.status).toBe(201);
    expect(res.body.user).toMatchObject({ email, first_name: 'Grace', last_name: 'Hopper' });
    const again = await checkout({ user: { email: email.toUpperCase(), first_name: 'X' }, offer_id: offer });
    expect(again.body.user.id).toBe(res.body.user.id); // the same user, unchanged
    expect(again.body.user.first_name).toBe('Grace');

    const g10 = await t.post('/v1/groups', { name: `G10 ${uniq()}`, discount_percent: 10 }, A());
    const g25 = await t.post('/v1/groups', { name: `G25 ${uniq()}`, discount_percent: 25 }, A());
    expect([g10.status, g25.status]).toEqual([201, 201]);
    for (const g of [g10, g25]) expect((await t.post(`/v1/groups/${g.body.id}/users`, { user: { id: res.body.user.id } }, A())).status).toBe(201);
    const disc = await checkout({ user: { id: res.body.user.id }, offer_id: offer, quantity: 2, tax_price_cents: 100 });
    // 3998 - floor(3998 * 25%) = 3998 - 999 = 2999, plus tax 100
    expect(disc.body).toMatchObject({ group_discount_percent: 25, group_discount_cents: 999, price_cents: 3099, original_price_cents: 3998 });
  });

  it('the state machine of §11: CREATED -> PENDING -> SUCCESS | FAILED | CANCELLED | FLAGGED, SUCCESS -> REFUNDED; other moves 400 on state', async () => {
    const c = await course();
    const offer = await offerOf(c.publishedCourseId, 500);
    const user = await learner();
    const buy = async () => (await checkout({ user: { id: user }, offer_id: offer })).body.id as string;
    const patch = (id: string, body: Record<string, unknown>) => t.patch(`/v1/purchases/${id}`, body, A());
    const fulfil = (id: string, body: Record<string, unknown>) => t.post(`/v1/purchases/${id}/fulfill`, body, A());
    const refused = async (res: { status: number; body: any }) => {
      expect(res.status).toBe(400);
      expect(res.body.state).toEqual([expect.stringContaining('cannot move')]);
    };

    const p1 = await buy();
    await refused(await fulfil(p1, { state: 'SUCCESS' })); // CREATED -> SUCCESS
    await refused(await patch(p1, { state: 'REFUNDED' }));
    await refused(await patch(p1, { state: 'FAILED' }));
    expect((await t.get(`/v1/purchases/${p1}`, A())).body.state).toBe('CREATED');
    expect((await patch(p1, { state: 'PENDING' })).body.state).toBe('PENDING');
    await refused(await patch(p1, { state: 'CREATED' }));
    await refused(await patch(p1, { state: 'REFUNDED' }));
    for (const final of ['FAILED', 'CANCELLED', 'FLAGGED']) {
      const p = await buy();
      expect((await patch(p, { state: 'PENDING' })).status).toBe(200);
      const r = final === 'FLAGGED' ? await patch(p, { state: final }) : await fulfil(p, { state: final, error_msg: 'declined' });
      expect(r.status).toBe(200);
      const body = final === 'FLAGGED' ? r.body : r.body.purchase;
      expect(body.state).toBe(final);
      if (final !== 'FLAGGED') expect(body.status_msg).toBe('declined');
      for (const to of ['PENDING', 'SUCCESS', 'REFUNDED', 'CREATED']) if (to !== final) await refused(await patch(p, { state: to }));
    }
    expect(await enrollments(user, c.publishedCourseId)).toEqual([]);
    const ok = await fulfil(p1, { state: 'SUCCESS', payment_processor_order_id: 'pi_9', payment_processor_response_data: '{"ok":true}' });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({
      redirect_url: `https://${org.domain_name}/`,
      purchase: expect.objectContaining({ state: 'SUCCESS', payment_processor_order_id: 'pi_9', payment_processor_response_data: '{"ok":true}' }),
    });
    await refused(await patch(p1, { state: 'PENDING' }));
    await refused(await fulfil(p1, { state: 'FAILED' }));
    const refund = await patch(p1, { state: 'REFUNDED', refund_cents: 200 });
    expect(refund.body).toMatchObject({ state: 'REFUNDED', refund_cents: 200, refunded_at: expect.any(String) });
    await refused(await patch(p1, { state: 'SUCCESS' }));
  });

  it('fulfil of a purchase whose offer sells nothing any more (its published course deleted): no redirect_url (nowhere to send the buyer), not an empty one', async () => {
    const c = await course();
    const offer = await offerOf(c.publishedCourseId, 700);
    const p = (await checkout({ user: { id: await learner() }, offer_id: offer })).body.id as string;
    expect((await t.patch(`/v1/purchases/${p}`, { state: 'PENDING' }, A())).status).toBe(200);
    expect((await t.delete(`/v1/domains/${org.domain_name}/published-courses/${c.publishedCourseId}`, A())).status).toBe(204);
    const res = await t.post(`/v1/purchases/${p}/fulfill`, { state: 'FAILED', error_msg: 'declined' }, A());
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ purchase: expect.objectContaining({ id: p, state: 'FAILED' }) });
  });

  it('fulfil SUCCESS enrolls the buyer (domain, course) with events carrying the purchase, exactly once under parallel fulfils; refund deactivates', async () => {
    const c = await course();
    const offer = await offerOf(c.publishedCourseId, 1200);
    const email = `new-${uniq()}@example.test`;
    const p = (await checkout({ user: { email, first_name: 'Lin', last_name: 'Ng' }, offer_id: offer })).body;
    expect((await t.patch(`/v1/purchases/${p.id}`, { state: 'PENDING' }, A())).status).toBe(200);
    const [domainEvents, courseEvents, fulfilments] = [(await events('DOMAIN_ENROLLMENT')).length, (await events('COURSE_ENROLLMENT')).length, (await events('PURCHASE_FULFILLMENT')).length];
    const results = await Promise.all(Array.from({ length: 8 }, () => t.post(`/v1/purchases/${p.id}/fulfill`, { state: 'SUCCESS' }, A())));
    expect(results.map((r) => r.status)).toEqual(Array(8).fill(200));
    expect(results.every((r) => r.body.purchase.state === 'SUCCESS')).toBe(true);
    const rows = await enrollments(p.user.id, c.publishedCourseId);
    expect(rows).toEqual([{ id: expect.any(String), active: true }]);
    expect((await events('DOMAIN_ENROLLMENT')).length).toBe(domainEvents + 1);
    expect((await events('COURSE_ENROLLMENT')).length).toBe(courseEvents + 1);
    const f = await events('PURCHASE_FULFILLMENT');
    expect(f.length).toBe(fulfilments + 1);
    const purchaseMember = {
      id: p.id,
      purchase_price: '12.00',
      order_id: p.order_id,
      original_price: '12.00',
      offer_sku: offer,
      price_cents: 1200,
      currency_code: 'USD',
      state: 'SUCCESS',
      quantity: 1,
      purchased_at: p.purchased_at,
      payment_processor: 'NONE',
      payment_processor_order_id: '',
      promo_code_id: null,
      promo_code_quantity: 0,
    };
    expect(f[f.length - 1]).toMatchObject({
      event_type: 'PURCHASE_FULFILLMENT',
      user: { id: p.user.id, email, first_name: 'Lin', last_name: 'Ng' },
      course: { id: c.courseId, published_course_id: c.publishedCourseId },
      purchase: purchaseMember,
      domain: { name: org.domain_name },
    });
    const ce = await events('COURSE_ENROLLMENT');
    expect(ce[ce.length - 1]).toMatchObject({ user: { id: p.user.id }, purchase: purchaseMember });
    // the learner sees the course
    expect((await t.get(`/v1/users/${p.user.id}/published-courses/${c.publishedCourseId}`, A())).status).toBe(200);

    const refunds = await Promise.all([1, 2].map(() => t.patch(`/v1/purchases/${p.id}`, { state: 'REFUNDED' }, A())));
    // a repeated refund answers the refunded purchase (as a repeated fulfil does) and changes nothing more
    expect(refunds.map((r) => r.status)).toEqual([200, 200]);
    for (const r of refunds) expect(r.body).toMatchObject({ state: 'REFUNDED', refund_cents: 1200, refunded_at: refunds[0].body.refunded_at });
    expect(await enrollments(p.user.id, c.publishedCourseId)).toEqual([{ id: rows[0].id, active: false }]);
  });

  it('a refund leaves alone the enrollment the buyer already had; a purchase of price 0 is fulfilled at once', async () => {
    const c = await course();
    const offer = await offerOf(c.publishedCourseId, 800);
    const user = await learner();
    await journey(t, org).enroll(user, c.publishedCourseId);
    const p = (await checkout({ user: { id: user }, offer_id: offer })).body;
    await t.patch(`/v1/purchases/${p.id}`, { state: 'PENDING' }, A());
    expect((await t.post(`/v1/purchases/${p.id}/fulfill`, { state: 'SUCCESS' }, A())).status).toBe(200);
    expect(await enrollments(user, c.publishedCourseId)).toHaveLength(1);
    expect((await t.patch(`/v1/purchases/${p.id}`, { state: 'REFUNDED' }, A())).status).toBe(200);
    expect((await enrollments(user, c.publishedCourseId))[0].active).toBe(true);

    const free = await course();
    const freeOffer = await offerOf(free.publishedCourseId, null);
    const before = (await events('PURCHASE_FULFILLMENT')).length;
    const fp = await checkout({ user: { id: user }, offer_id: freeOffer });
    expect(fp.status).toBe(201);
    expect(fp.body).toMatchObject({ state: 'SUCCESS', price_cents: 0, offer_price_cents: 0 });
    expect(await enrollments(user, free.publishedCourseId)).toEqual([{ id: expect.any(String), active: true }]);
    expect((await events('PURCHASE_FULFILLMENT')).length).toBe(before + 1);
    // a 100% group discount makes a priced offer free too
    const g = await t.post('/v1/groups', { name: `Free ${uniq()}`, discount_percent: 100 }, A());
    const buyer = await learner();
    await t.post(`/v1/groups/${g.body.id}/users`, { user: { id: buyer } }, A());
    expect((await checkout({ user: { id: buyer }, offer_id: offer })).body).toMatchObject({ state: 'SUCCESS', price_cents: 0, group_discount_cents: 800 });
  });

  it('path and plan offers grant their enrollments, refunded together', async () => {
    const c = await course();
    const pp = await journey(t, org).path([c.publishedCourseId]);
    const ppOffer = (await t.get(`/v1/domains/${org.domain_name}/published-paths/${pp.id}`, A())).body.offer.id;
    await t.patch(`/v1/offers/${ppOffer}`, { price_cents: 100 }, A());
    const user = await learner();
    const p = (await checkout({ user: { id: user }, offer_id: ppOffer })).body;
    await t.patch(`/v1/purchases/${p.id}`, { state: 'PENDING' }, A());
    expect((await t.post(`/v1/purchases/${p.id}/fulfill`, { state: 'SUCCESS' }, A())).status).toBe(200);
    const list = await t.get(`/v1/domains/${org.domain_name}/published-paths/${pp.id}/published-path-enrollments`, A());
    expect(list.body.results).toHaveLength(1);
    expect(list.body.results[0]).toMatchObject({ active: true, purchase: { purchase_id: p.id, order_id: p.order_id, purchase_price: { amount: '1.00', currency_code: 'USD' } } });
    const pe = (await events('PATH_ENROLLMENT')).pop();
    expect(pe).toMatchObject({ user: { id: user }, path: { published_path_id: pp.id }, purchase: { id: p.id } });
    await t.patch(`/v1/purchases/${p.id}`, { state: 'REFUNDED' }, A());
    expect((await t.get(`/v1/domains/${org.domain_name}/published-paths/${pp.id}/published-path-enrollments`, A())).body.results[0].active).toBe(false);
  });

  it('bad input is a 400 naming the member, with nothing charged, created or counted', async () => {
    const c = await course();
    const offer = await offerOf(c.publishedCourseId, 1000);
    const user = await learner();
    const closed = await course();
    const closedOffer = await offerOf(closed.publishedCourseId, 1000);
    await t.patch(`/v1/offers/${closedOffer}`, { registration_open: false }, A());
    const foreign = await journey(t, other).course([{}]);
    const foreignOffer = (await t.get(`/v1/domains/${other.domain_name}/published-courses/${foreign.publishedCourseId}`, { basic: other.api_key })).body.offer.id;
    const [purchases, users] = [await count('purchases'), await count('users')];
    const cases: [Record<string, unknown>, string][] = [
      [{ offer_id: offer }, 'user'],
      [{ user: { id: user } }, 'offer_id'],
      [{ user: 'x', offer_id: offer }, 'user'],
      [{ user: {}, offer_id: offer }, 'user'],
      [{ user: { id: 'stu' + '0'.repeat(25) }, offer_id: offer }, 'user'],
      [{ user: { email: 'not-an-email' }, offer_id: offer }, 'user'],
      [{ user: { email: `ok-${uniq()}@example.test`, first_name: 'x'.repeat(51) }, offer_id: offer }, 'user'],
      [{ user: { id: user }, offer_id: 'nope' }, 'offer_id'],
      [{ user: { id: user }, offer_id: foreignOffer }, 'offer_id'],
      [{ user: { id: user }, offer_id: closedOffer }, 'offer_id'],
      [{ user: { id: user }, offer_id: offer, quantity: 0 }, 'quantity'],
      [{ user: { id: user }, offer_id: offer, quantity: 101 }, 'quantity'],
      [{ user: { id: user }, offer_id: offer, quantity: '2' }, 'quantity'],
      [{ user: { id: user }, offer_id: offer, tax_price_cents: -1 }, 'tax_price_cents'],
      [{ user: { id: user }, offer_id: offer, payment_processor: 'BITCOIN' }, 'payment_processor'],
      [{ user: { id: user }, offer_id: offer, promo_code: 'NOSUCHCODE' }, 'promo_code'],
      [{ user: { id: user }, offer_id: offer, training_credit_code: 'NOSUCHCODE' }, 'training_credit_code'],
      [{ user: { id: user }, offer_id: offer, promo_code: '' }, 'promo_code'],
    ];
    for (const [body, field] of cases) {
      const res = await checkout(body);
      expect({ body, status: res.status }).toEqual({ body, status: 400 });
      expect(drfFlat(res.body)[field]).toEqual([expect.any(String)]);
    }
    expect(await count('purchases')).toBe(purchases);
    expect(await count('users')).toBe(users);

    const p = (await checkout({ user: { id: user }, offer_id: offer })).body;
    const bad: [string, Record<string, unknown>, string][] = [
      ['PATCH', { state: 'DONE' }, 'state'],
      ['PATCH', { price_cents: -5 }, 'price_cents'],
      ['PATCH', { refund_cents: 10 }, 'refund_cents'],
      ['PATCH', { refunded_at: 'yesterday', state: 'PENDING' }, 'refunded_at'],
      ['PUT', { tax_price_cents: 'x' }, 'tax_price_cents'],
      ['FULFIL', {}, 'state'],
      ['FULFIL', { state: 'REFUNDED' }, 'state'],
      ['FULFIL', { state: 'SUCCESS', error_msg: '' }, 'error_msg'],
    ];
    for (const [op, body, field] of bad) {
      const res = op === 'FULFIL' ? await t.post(`/v1/purchases/${p.id}/fulfill`, body, A()) : await t.request(op, `/v1/purchases/${p.id}`, { ...A(), body });
      expect({ op, body, status: res.status }).toEqual({ op, body, status: 400 });
      expect(drfFlat(res.body)[field]).toEqual([expect.any(String)]);
    }
    expect((await t.get(`/v1/purchases/${p.id}`, A())).body).toMatchObject({ state: 'CREATED', price_cents: 1000, refund_cents: null });
    // prices can be changed while the purchase is open, never after
    expect((await t.request('PUT', `/v1/purchases/${p.id}`, { ...A(), body: { price_cents: 900, tax_price_cents: 50 } })).body).toMatchObject({ price_cents: 900, tax_price_cents: 50 });
    await t.patch(`/v1/purchases/${p.id}`, { state: 'PENDING' }, A());
    await t.post(`/v1/purchases/${p.id}/fulfill`, { state: 'SUCCESS' }, A());
    const late = await t.patch(`/v1/purchases/${p.id}`, { price_cents: 1 }, A());
    expect(late.status).toBe(400);
    expect(late.body.price_cents).toEqual([expect.any(String)]);
    const over = await t.patch(`/v1/purchases/${p.id}`, { state: 'REFUNDED', refund_cents: 901 }, A());
    expect(over.body.refund_cents).toEqual([expect.any(String)]);
  });

  it("isolation and scopes: another organization's purchase is 404 like a random id; orders:read reads, offers:write writes", async () => {
    const c = await course();
    const offer = await offerOf(c.publishedCourseId, 1000);
    const p = (await checkout({ user: { id: await learner() }, offer_id: offer })).body;
    const B = { basic: other.api_key };
    for (const id of [p.id, 'nope', 'pur' + '0'.repeat(25)]) {
      expect((await t.get(`/v1/purchases/${id}`, B)).status).toBe(404);
      expect((await t.patch(`/v1/purchases/${id}`, { state: 'PENDING' }, B)).status).toBe(404);
      expect((await t.post(`/v1/purchases/${id}/fulfill`, { state: 'SUCCESS' }, B)).status).toBe(404);
    }
    expect((await t.get(`/v1/purchases/${p.id}`, A())).body.state).toBe('CREATED');
    const reader = await t.tokenFor(org, ['orders:read']);
    expect((await t.get(`/v1/purchases/${p.id}`, { token: reader })).status).toBe(200);
    expect((await t.patch(`/v1/purchases/${p.id}`, { state: 'PENDING' }, { token: reader })).status).toBe(403);
    expect((await t.post('/v1/purchases', { user: { id: p.user.id }, offer_id: offer }, { token: reader })).status).toBe(403);
    const writer = await t.tokenFor(org, ['offers:write']);
    expect((await t.post('/v1/purchases', { user: { id: p.user.id }, offer_id: offer }, { token: writer })).status).toBe(201);
  });
});
