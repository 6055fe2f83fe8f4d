import type { CreatedOrg } from '../../src/modules/organizations/organizations.service';
import { startTestApp, TestApp } from '../support/app';
import { domainOf, insertCourse, insertDomain, insertSignupField, orgUuid, publishCourse } from '../support/fixtures';

/**
 * The body members of the real events (CONVENTIONS.md sections 6 and 10): every key of the
 * platform's published sample (../shared/reference/webhook-event-samples.md, copied below) exists in
 * the events we write (through the real API operations that write them) and in the sample-*
 * operations, with `domain_access_code` and `signup_fields` filled from the user's membership.
 */

/** The real COURSE_ENROLLMENT body of webhook-event-samples.md, verbatim (values replaced there). */
const REAL_COURSE_ENROLLMENT = {
  event_type: 'COURSE_ENROLLMENT',
  timestamp: '2021-04-22T21:40:31.918508+00:00',
  user: { id: '2v22kvbvb4c4o', email: 'learner@example.com', first_name: 'Ada', last_name: 'Lovelace' },
  course: { id: '23kihplqhfvr', title: 'Managing Bundles', published_course_id: '2pklmifxg2bu1', url: 'https://learn.example.com/managing-bundles' },
  purchase: {
    id: '2zugor5zmyyuk',
    purchase_price: '0.00',
    order_id: '67FSRWY9',
    original_price: '0.00',
    offer_sku: '154c9249-6aa7-4c1f-95e4-a848bcad34e5',
    price_cents: 0,
    currency_code: 'USD',
    state: 'SUCCESS',
    quantity: 1,
    purchased_at: '2021-04-22T21:40:31.106390+00:00',
    payment_processor: 'NONE',
    payment_processor_order_id: '',
    promo_code_id: null,
    promo_code: null,
    promo_code_price_cents: null,
    promo_code_percent_off: null,
    promo_code_quantity: 0,
  },
  domain: { id: 'toiwqbxdayju', name: 'learn.example.com' },
  domain_access_code: 'partner-code',
  signup_fields: {
    '2ljpx7rqjzuql': { value: 'true', signup_field: { id: '2ljpx7rqjzuql', label: 'employee' } },
    '1iqnnqlmji1fo': { value: 'false', signup_field: { id: '1iqnnqlmji1fo', label: 'customer' } },
  },
};
const SAMPLE_SIGNUP_ENTRY = Object.values(REAL_COURSE_ENROLLMENT.signup_fields)[0];

/**
 * Keys of `real` missing from `ours`, recursively: objects member by member; `signup_fields`
 * entries against the sample's entry shape (ours are keyed by our field ids); a `purchase` that is
 * null (no purchase behind the event) only needs the key.
 */
function missingKeys(real: Record<string, unknown>, ours: Record<string, unknown>, at = ''): string[] {
  const out: string[] = [];
  for (const [k, v] of Object.entries(real)) {
    const here = at ? `${at}.${k}` : k;
    if (!(k in ours)) {
      out.push(here);
      continue;
    }
    const mine = ours[k];
    if (k === 'signup_fields' && !at) {
      if (!mine || typeof mine !== 'object' || Array.isArray(mine)) out.push(`${here} (not an object)`);
      else for (const [id, entry] of Object.entries(mine as Record<string, any>)) out.push(...missingKeys(SAMPLE_SIGNUP_ENTRY, entry, `${here}.${id}`));
      continue;
    }
    if (k === 'purchase' && mine === null) continue;
    if (v && typeof v === 'object' && !Array.isArray(v)) {
      if (!mine || typeof mine !== 'object') out.push(`${here} (not an object)`);
      else out.push(...missingKeys(v as Record<string, unknown>, mine as Record<string, unknown>, here));
    }
  }
  return out;
}

/** What every event type carries (the md: the same user, domain, domain_access_code, signup_fields, plus its object). */
const COMMON = ['event_type', 'timestamp', 'user', 'domain', 'domain_access_code', 'signup_fields'] as const;
const pick = (keys: readonly string[]) => Object.fromEntries(keys.map((k) => [k, (REAL_COURSE_ENROLLMENT as Record<string, unknown>)[k]]));
const EXPECTED: Record<string, Record<string, unknown>> = {
  COURSE_ENROLLMENT: REAL_COURSE_ENROLLMENT,
  DOMAIN_ENROLLMENT: pick([...COMMON, 'purchase']),
  PATH_ENROLLMENT: { ...pick([...COMMON, 'purchase']), path: { id: '', published_path_id: '', title: '', url: '' } },
  COURSE_COMPLETION: { ...pick([...COMMON, 'course']), success_status: '', score: 0 },
  LESSON_COMPLETION: { ...pick([...COMMON, 'course']), lesson: {}, success_status: '', score: 0 },
  PATH_COMPLETION: { ...pick(COMMON), path: {}, success_status: '', score: 0 },
  QUIZ_COMPLETION: { ...pick([...COMMON, 'course']), quiz: {}, success_status: '', score: 0 },
  PURCHASE_FULFILLMENT: pick([...COMMON, 'purchase']),
  VILT_EVENT_REGISTRATION: { ...pick([...COMMON, 'course']), vilt_session: {} },
  DASHBOARD_TASK_CREATED: pick(COMMON),
};

jest.setTimeout(60_000);

describe('webhook event bodies carry the members of the real events', () => {
  let t: TestApp;
  let org: CreatedOrg;
  beforeAll(async () => {
    t = await startTestApp();
    org = await t.newOrg();
  });
  afterAll(() => t.close());

  const basic = () => ({ basic: org.api_key });
  const eventsOf = async (type: string) =>
    (await t.ds.query(`SELECT payload FROM outbox_events WHERE organization_id = $1 AND event_type = $2 ORDER BY seq`, [orgUuid(org), type])).map((r: any) => r.payload);
  /** a signup field of a domain (default: the organization's), through POST /v1/domains/{domain_name}/signup-fields */
  const signupField = async (label: string, order: number, domain: string = org.domain_name) => (await insertSignupField(t, org, domain, { label, order })).id;

  it('DOMAIN_ENROLLMENT, COURSE_ENROLLMENT and PATH_ENROLLMENT written by the API carry domain_access_code, signup_fields and purchase', async () => {
    const dn = org.domain_name;
    const users = `/v1/domains/${dn}/users`;
    const employee = await signupField('employee', 1);
    const customer = await signupField('customer', 2);
    const otherDomain = await insertDomain(t, org);
    const elsewhere = await signupField('other domain only', 3, otherDomain.name);

    // joining the domain: no code, no signup values yet
    const joined = await t.post(users, { user: { email: 'ada@example.com', first_name: 'Ada', last_name: 'Lovelace' } }, basic());
    expect(joined.status).toBe(201);
    const uid = joined.body.user.id;
    const [domainEvent] = await eventsOf('DOMAIN_ENROLLMENT');
    expect(domainEvent).toMatchObject({ user: { id: uid }, domain_access_code: null, signup_fields: {}, purchase: null });
    expect(missingKeys(EXPECTED.DOMAIN_ENROLLMENT, domainEvent)).toEqual([]);

    // the membership now has a code and signup values (a value of a field of another domain is not the domain's)
    const pool = await t.post(`/v1/domains/${dn}/access-code-pools`, { name: 'Partners' }, basic());
    expect(pool.status).toBe(201);
    const code = await t.post(`/v1/domains/${dn}/access-code-pools/${pool.body.id}/access-codes`, { code: 'partner-code' }, basic());
    expect(code.status).toBe(201);
    expect((await t.patch(`${users}/${uid}`, { access_code: { id: code.body.id } }, basic())).status).toBe(200);
    expect(
      (
        await t.post(
          `${users}/${uid}/signup-fields-bulk`,
          {
            signup_fields: [
              { id: customer, value: 'false' },
              { id: employee, value: 'true' },
            ],
          },
          basic(),
        )
      ).status,
    ).toBe(201);
    // a value for a field of another domain (set there): not one of this domain's members
    expect((await t.post(`/v1/domains/${otherDomain.name}/users`, { user: { email: 'ada@example.com' } }, basic())).status).toBe(201);
    expect((await t.post(`/v1/domains/${otherDomain.name}/users/${uid}/signup-fields`, { signup_field: { id: elsewhere }, value: 'hidden' }, basic())).status).toBeLessThan(300);
    const expectedFields = {
      [employee]: { value: 'true', signup_field: { id: employee, label: 'employee' } },
      [customer]: { value: 'false', signup_field: { id: customer, label: 'customer' } },
    };
    expect(elsewhere).not.toBe(employee);

    // COURSE_ENROLLMENT through POST .../published-courses/{id}/enrollments
    const course = await insertCourse(t, org, { title: 'Managing Bundles' });
    const pc = await publishCourse(t, org, course.uuid);
    const enrolled = await t.post(`/v1/domains/${dn}/published-courses/${pc.id}/enrollments`, { user: { id: uid } }, basic());
    expect(enrolled.status).toBe(201);
    const [courseEvent] = await eventsOf('COURSE_ENROLLMENT');
    expect(courseEvent).toMatchObject({ domain_access_code: 'partner-code', purchase: { price_cents: 0, state: 'SUCCESS', payment_processor: 'NONE' } });
    expect(courseEvent.signup_fields).toEqual(expectedFields);
    expect(missingKeys(REAL_COURSE_ENROLLMENT, courseEvent)).toEqual([]);

    // PATH_ENROLLMENT through POST .../published-paths/{id}/published-path-enrollments
    const pp = await t.post(`/v1/domains/${dn}/published-paths`, { slug: `p-${Date.now()}`, path: { title: 'A path' } }, basic());
    expect(pp.status).toBe(201);
    const pe = await t.post(`/v1/domains/${dn}/published-paths/${pp.body.id}/published-path-enrollments`, { user: { id: uid } }, basic());
    expect(pe.status).toBe(201);
    const [pathEvent] = await eventsOf('PATH_ENROLLMENT');
    expect(pathEvent).toMatchObject({ domain_access_code: 'partner-code', signup_fields: expectedFields, purchase: { price_cents: 0, state: 'SUCCESS', payment_processor: 'NONE' } });
    expect(missingKeys(EXPECTED.PATH_ENROLLMENT, pathEvent)).toEqual([]);

    // the sample operations show the real events as they are
    for (const [path, event] of [
      ['sample-course-enrollment', courseEvent],
      ['sample-path-enrollment', pathEvent],
    ] as const) {
      const s = await t.get(`/v1/webhooks/${path}`, basic());
      expect(s.status).toBe(200);
      expect(s.body.results[0]).toEqual(event);
    }
  });

  it("bulk-create: each DOMAIN_ENROLLMENT carries its own user's members (one statement for the batch)", async () => {
    const dn = (await domainOf(t, org)).name;
    const before = (await eventsOf('DOMAIN_ENROLLMENT')).length;
    const res = await t.post(`/v1/domains/${dn}/users/bulk-create`, { users: [{ email: 'b1@example.com' }, { email: 'b2@example.com' }] }, basic());
    expect(res.status).toBe(200);
    const events = (await eventsOf('DOMAIN_ENROLLMENT')).slice(before);
    expect(events.map((e: any) => e.user.email).sort()).toEqual(['b1@example.com', 'b2@example.com']);
    for (const e of events) {
      expect(e).toMatchObject({ domain_access_code: null, signup_fields: {}, purchase: null });
      expect(missingKeys(EXPECTED.DOMAIN_ENROLLMENT, e)).toEqual([]);
    }
  });

  it('every sample-* operation (generated events) has every key of the real events, for its type', async () => {
    const fresh = await t.newOrg();
    const paths: Record<string, string> = {
      'sample-course-completion': 'COURSE_COMPLETION',
      'sample-course-enrollment': 'COURSE_ENROLLMENT',
      'sample-dashboard-task-created': 'DASHBOARD_TASK_CREATED',
      'sample-domain-enrollment': 'DOMAIN_ENROLLMENT',
      'sample-lesson-completion': 'LESSON_COMPLETION',
      'sample-path-completion': 'PATH_COMPLETION',
      'sample-path-enrollment': 'PATH_ENROLLMENT',
      'sample-purchase-fulfillment': 'PURCHASE_FULFILLMENT',
      'sample-quiz-completion': 'QUIZ_COMPLETION',
      'sample-vilt-registration': 'VILT_EVENT_REGISTRATION',
    };
    for (const [path, type] of Object.entries(paths)) {
      const res = await t.get(`/v1/webhooks/${path}`, { basic: fresh.api_key });
      expect(res.status).toBe(200);
      const [event] = res.body.results;
      expect({ path, missing: missingKeys(EXPECTED[type], event) }).toEqual({ path, missing: [] });
      expect(Object.keys(event.signup_fields).length).toBeGreaterThan(0);
      // sample ids follow the published pattern too
      for (const id of [event.id, event.user.id, event.domain.id]) expect(id).toMatch(/^[0-9a-z]+$/);
    }
    // the purchase fulfilment sample shows a purchase with every member of the real one
    const pf = (await t.get('/v1/webhooks/sample-purchase-fulfillment', { basic: fresh.api_key })).body.results[0];
    expect(pf.purchase).not.toBeNull();
    expect(missingKeys({ purchase: REAL_COURSE_ENROLLMENT.purchase }, pf)).toEqual([]);
  });
});
