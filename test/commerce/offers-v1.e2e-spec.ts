import { decodeId } from '../../src/core/ids/ids';
import type { CreatedOrg } from '../../src/modules/organizations/organizations.service';
import { startTestApp, TestApp } from '../support/app';
import { domainOf, insertCourseSeries, insertPlan, orgUuid } from '../support/fixtures';
import { journey } from '../support/learner-journey';
import { drfFlat } from '../support/drf';

/** /v1/offers and the offer block of the objects that carry one (CONVENTIONS §11). */
describe('/v1 offers', () => {
  let t: TestApp;
  let org: CreatedOrg;
  let other: CreatedOrg;
  const basic = () => ({ basic: org.api_key });
  const offersOf = async (column: string, uuid: string) =>
    (await t.ds.query(`SELECT id, price_cents, registration_open FROM offers WHERE organization_id = $1 AND ${column} = $2`, [orgUuid(org), uuid])) as any[];

  beforeAll(async () => {
    t = await startTestApp();
    org = await t.newOrg();
    other = await t.newOrg();
  });
  afterAll(() => t.close());

  it('every published course, published path, plan and series gets exactly one offer, made with it; the block shows it', async () => {
    const j = journey(t, org);
    const c = await j.course([{}]);
    const pcOffers = await offersOf('published_course_id', decodeId('publishedCourse', c.publishedCourseId)!);
    expect(pcOffers).toHaveLength(1);
    expect(pcOffers[0]).toMatchObject({ price_cents: null, registration_open: true });
    const read = await t.get(`/v1/domains/${org.domain_name}/published-courses/${c.publishedCourseId}`, basic());
    expect(read.body.offer).toEqual({
      id: expect.stringMatching(/^ofr[0-9a-z]{25}$/),
      registration_open: true,
      registration_url: `https://${org.domain_name}/checkout/${read.body.offer.id}`,
      price: { amount: '0.00', currency_code: 'USD' },
    });
    expect(decodeId('offer', read.body.offer.id)).toBe(pcOffers[0].id);
    const list = await t.get(`/v1/domains/${org.domain_name}/published-courses`, basic());
    expect(list.body.results.find((r: any) => r.id === c.publishedCourseId).offer).toEqual(read.body.offer);

    const pp = await j.path([c.publishedCourseId]);
    expect(await offersOf('published_path_id', decodeId('publishedPath', pp.id)!)).toHaveLength(1);
    const d = await domainOf(t, org);
    const plan = await insertPlan(t, org, d.uuid);
    expect(await offersOf('plan_id', plan.uuid)).toHaveLength(1);
    const series = await insertCourseSeries(t, org, d.uuid, []);
    expect(await offersOf('course_series_id', series.uuid)).toHaveLength(1);
    // a second offer for the same object is refused by the database
    await expect(t.ds.query(`INSERT INTO offers (organization_id, plan_id) VALUES ($1, $2)`, [orgUuid(org), plan.uuid])).rejects.toThrow(/offers_plan_id_uq/);
  });

  it("lists the live objects' offers (oldest first, paged), reads one, and answers 404 for others", async () => {
    const org2 = await t.newOrg();
    const b = { basic: org2.api_key };
    const j = journey(t, org2);
    const c1 = await j.course([{}]);
    const c2 = await j.course([{}]);
    const pp = await j.path([c1.publishedCourseId]);
    const list = await t.get('/v1/offers', b);
    expect(list.status).toBe(200);
    expect(list.body.count).toBe(3);
    expect(list.body.results.map((r: any) => r.offer_type)).toEqual(['published_course', 'published_course', 'published_path']);
    expect(list.body.results[0]).toEqual({
      id: expect.stringMatching(/^ofr[0-9a-z]{25}$/),
      published_course_id: c1.publishedCourseId,
      domain_name: org2.domain_name,
      offer_type: 'published_course',
      price_cents: 0,
      currency_code: 'USD',
      price_credits: null,
      sku: list.body.results[0].id,
      max_quantity: 100,
      active: true,
      starts_at: expect.any(String),
      linked_to_plan: false,
      registration_open: true,
    });
    expect(list.body.results[2].published_path_id).toBe(pp.id);
    const page = await t.get('/v1/offers?page_size=2&page=2', b);
    expect(page.body).toMatchObject({ count: 3, next: null, previous: expect.stringContaining('page_size=2') });
    expect(page.body.results).toHaveLength(1);
    const one = await t.get(`/v1/offers/${list.body.results[1].id}`, b);
    expect(one.body).toEqual(list.body.results[1]);
    // unpublished: its offer is no longer listed nor readable
    expect((await t.delete(`/v1/domains/${org2.domain_name}/published-courses/${c2.publishedCourseId}`, b)).status).toBe(204);
    expect((await t.get('/v1/offers', b)).body.count).toBe(2);
    expect((await t.get(`/v1/offers/${list.body.results[1].id}`, b)).status).toBe(404);
    // another organization's offer, a malformed id, a random id: 404 alike
    for (const id of [list.body.results[0].id, 'nope', 'ofr' + '0'.repeat(25)]) {
      const res = await t.get(`/v1/offers/${id}`, { basic: other.api_key });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ detail: expect.any(String) });
    }
  });

  it('PUT and PATCH set price, currency and registration_open (both partial); the blocks follow', async () => {
    const j = journey(t, org);
    const c = await j.course([{}]);
    const read = await t.get(`/v1/domains/${org.domain_name}/published-courses/${c.publishedCourseId}`, basic());
    const id = read.body.offer.id;
    const put = await t.request('PUT', `/v1/offers/${id}`, { ...basic(), body: { price_cents: 4950 } });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ id, price_cents: 4950, currency_code: 'USD', registration_open: true });
    const patch = await t.patch(`/v1/offers/${id}`, { currency_code: 'EUR', registration_open: false }, basic());
    expect(patch.body).toMatchObject({ price_cents: 4950, currency_code: 'EUR', registration_open: false });
    const again = await t.get(`/v1/domains/${org.domain_name}/published-courses/${c.publishedCourseId}`, basic());
    expect(again.body.offer).toMatchObject({ id, registration_open: false, price: { amount: '49.50', currency_code: 'EUR' } });
    expect((await t.patch(`/v1/offers/${id}`, { price_cents: 0 }, basic())).body.price_cents).toBe(0);
  });

  it('bad bodies are 400 naming the member and change nothing; scopes are offers:read / offers:write', async () => {
    const j = journey(t, org);
    const c = await j.course([{}]);
    const id = (await t.get(`/v1/domains/${org.domain_name}/published-courses/${c.publishedCourseId}`, basic())).body.offer.id;
    const bad: [Record<string, unknown>, string][] = [
      [{ price_cents: -1 }, 'price_cents'],
      [{ price_cents: 'ten' }, 'price_cents'],
      [{ price_cents: 1.5 }, 'price_cents'],
      [{ price_cents: 2 ** 31 }, 'price_cents'],
      [{ currency_code: 'XXX' }, 'currency_code'],
      [{ currency_code: 'usd' }, 'currency_code'],
      [{ registration_open: 'yes' }, 'registration_open'],
      [{ price_credits: 3 }, 'price_credits'],
      [{ price_cents: 100, price_credits: 3 }, 'price_credits'],
    ];
    for (const [body, field] of bad) {
      const res = await t.patch(`/v1/offers/${id}`, body, basic());
      expect(res.status).toBe(400);
      expect(drfFlat(res.body)[field]).toEqual([expect.any(String)]);
    }
    expect((await t.get(`/v1/offers/${id}`, basic())).body).toMatchObject({ price_cents: 0, currency_code: 'USD', registration_open: true });
    const reader = await t.tokenFor(org, ['offers:read']);
    expect((await t.get(`/v1/offers/${id}`, { token: reader })).status).toBe(200);
    expect((await t.patch(`/v1/offers/${id}`, { price_cents: 5 }, { token: reader })).status).toBe(403);
    expect((await t.get('/v1/offers', { token: await t.tokenFor(org, ['courses:read']) })).status).toBe(403);
    expect((await t.get('/v1/offers')).status).toBe(401);
  });
});
