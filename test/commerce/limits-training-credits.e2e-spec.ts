import type { CreatedOrg } from '../../src/modules/organizations/organizations.service';
import { startTestApp, TestApp } from '../support/app';
import { orgUuid } from '../support/fixtures';
import { journey } from '../support/learner-journey';

/** /v1/training-credit-codes (CONVENTIONS §11; docs/decisions/commerce-limits.md). */
describe('/v1 training credit codes', () => {
  let t: TestApp;
  let org: CreatedOrg;
  let other: CreatedOrg;
  const A = () => ({ basic: org.api_key });
  const B = () => ({ basic: other.api_key });
  let n = 0;
  const code = () => `TC-${Date.now()}-${n++}`;

  const offers = async (count: number, o: CreatedOrg = org): Promise<string[]> => {
    const out: string[] = [];
    const j = journey(t, o);
    for (let i = 0; i < count; i++) {
      const c = await j.course([{}]);
      out.push((await t.get(`/v1/domains/${o.domain_name}/published-courses/${c.publishedCourseId}`, { basic: o.api_key })).body.offer.id);
    }
    return out;
  };
  const group = async (o: CreatedOrg = org): Promise<string> => {
    const r = await t.post('/v1/groups', { name: `Group ${code()}` }, { basic: o.api_key });
    expect(r.status).toBe(201);
    return r.body.id;
  };
  const rows = async () =>
    (
      await t.ds.query(
        `SELECT (SELECT count(*)::int FROM training_credit_codes WHERE organization_id = $1) AS codes,
                (SELECT count(*)::int FROM training_credit_code_groups WHERE organization_id = $1) AS groups,
                (SELECT count(*)::int FROM training_credit_code_offers WHERE organization_id = $1) AS offers`,
        [orgUuid(org)],
      )
    )[0];

  beforeAll(async () => {
    t = await startTestApp();
    org = await t.newOrg();
    other = await t.newOrg();
  });
  afterAll(() => t.close());

  it('creates (available to all by default), reads, lists with both filters, and pages', async () => {
    const value = code();
    const r = await t.post('/v1/training-credit-codes', { training_credit_code: value, credits_total: 100, tracking_identifier: 'PO-1', expiration_date: '2027-01-01T00:00:00Z' }, A());
    expect(r.status).toBe(201);
    expect(r.body).toEqual({
      id: expect.stringMatching(/^tcc[0-9a-z]{25}$/),
      training_credit_code: value,
      credits_used: 0,
      credits_total: 100,
      credits_remaining: 100,
      expiration_date: '2027-01-01T00:00:00.000Z',
      expire_content: false,
      tracking_identifier: 'PO-1',
      available_to_all_students: true,
      available_for_all_offers: true,
      student_groups: [],
      offers: [],
    });
    expect((await t.get(`/v1/training-credit-codes/${r.body.id}`, A())).body).toEqual(r.body);
    const second = await t.post('/v1/training-credit-codes', { training_credit_code: code(), credits_total: 5 }, A());
    const byTracking = await t.get('/v1/training-credit-codes?tracking_identifier=PO-1', A());
    expect(byTracking.body.results.map((x: any) => x.id)).toEqual([r.body.id]);
    expect(byTracking.body.results[0]).not.toHaveProperty('offers');
    const byCode = await t.get(`/v1/training-credit-codes?training_credit_code=${encodeURIComponent(value)}`, A());
    expect(byCode.body.results.map((x: any) => x.id)).toEqual([r.body.id]);
    expect((await t.get(`/v1/training-credit-codes?training_credit_code=${encodeURIComponent(value.toLowerCase())}`, A())).body.count).toBe(0);
    const page = await t.get('/v1/training-credit-codes?page_size=1&page=2', A());
    expect(page.body).toMatchObject({ count: 2, next: null, previous: expect.any(String) });
    expect(page.body.results[0].id).toBe(second.body.id);
    // another organization sees nothing
    expect((await t.get(`/v1/training-credit-codes/${r.body.id}`, B())).status).toBe(404);
    expect((await t.get('/v1/training-credit-codes', B())).body.count).toBe(0);
    // the same code string may exist in another organization, not twice in one
    expect((await t.post('/v1/training-credit-codes', { training_credit_code: value, credits_total: 1 }, B())).status).toBe(201);
    const dup = await t.post('/v1/training-credit-codes', { training_credit_code: value, credits_total: 1 }, A());
    expect(dup.body).toEqual({ training_credit_code: ['A training credit code with this code already exists.'] });
  });

  it('student_groups and offers are required when their flag is false; restricted codes list their ids', async () => {
    const [g1, g2] = [await group(), await group()];
    const [o1] = await offers(1);
    const before = await rows();
    for (const [body, errors] of [
      [{ credits_total: 1, available_to_all_students: false }, { student_groups: ['This field is required when available_to_all_students is false.'] }],
      [{ credits_total: 1, available_to_all_students: false, student_groups: [] }, { student_groups: ['This field is required when available_to_all_students is false.'] }],
      [{ credits_total: 1, available_for_all_offers: false }, { offers: ['This field is required when available_for_all_offers is false.'] }],
      [{ credits_total: 1, student_groups: [g1, 'grpnope'] }, { student_groups: ['Invalid pk "grpnope" - object does not exist.'] }],
      [{ credits_total: 1, offers: ['ofrnope'] }, { offers: ['Invalid pk "ofrnope" - object does not exist.'] }],
      [{ credits_total: 1, student_groups: 'g' }, { student_groups: [expect.stringContaining('Expected a list')] }],
      [{ credits_total: -1 }, { credits_total: ['Ensure this value is greater than or equal to 0.'] }],
      [{ credits_total: 'ten' }, { credits_total: ['A valid integer is required.'] }],
      [{}, { credits_total: ['This field is required.'] }],
      [{ credits_total: 1, expiration_date: 'soon' }, { expiration_date: [expect.stringContaining('Datetime has wrong format')] }],
      [{ credits_total: 1, tracking_identifier: 'x'.repeat(257) }, { tracking_identifier: ['Ensure this field has no more than 256 characters.'] }],
    ] as [Record<string, unknown>, unknown][]) {
      const r = await t.post('/v1/training-credit-codes', { training_credit_code: code(), ...body }, A());
      expect({ body, status: r.status, errors: r.body }).toEqual({ body, status: 400, errors });
    }
    const missingCode = await t.post('/v1/training-credit-codes', { credits_total: 1 }, A());
    expect(missingCode.body).toEqual({ training_credit_code: ['This field is required.'] });
    // a foreign group is an unknown group
    const foreign = await group(other);
    expect((await t.post('/v1/training-credit-codes', { training_credit_code: code(), credits_total: 1, student_groups: [foreign] }, A())).status).toBe(400);
    expect(await rows()).toEqual(before);

    const r = await t.post('/v1/training-credit-codes', { training_credit_code: code(), credits_total: 10, student_groups: [g1, g2], offers: [o1] }, A());
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ available_to_all_students: false, available_for_all_offers: false, student_groups: [g1, g2], offers: [o1] });
    const open = await t.post('/v1/training-credit-codes', { training_credit_code: code(), credits_total: 10, available_to_all_students: true, student_groups: [g1] }, A());
    expect(open.body).toMatchObject({ available_to_all_students: true, student_groups: [g1], available_for_all_offers: true });
  });

  it('PATCH adds first, then removes; keeps the required-when rules; credits_total never below credits_used', async () => {
    const [g1, g2, g3] = [await group(), await group(), await group()];
    const [o1, o2] = await offers(2);
    const c = (await t.post('/v1/training-credit-codes', { training_credit_code: code(), credits_total: 10, student_groups: [g1] }, A())).body;
    // add and remove the same id: adds resolve first, so it ends removed
    const r = await t.patch(
      `/v1/training-credit-codes/${c.id}`,
      { student_groups: { add: [g2, g3], remove: [g1, g3] }, offers: { add: [o1, o2] }, available_for_all_offers: false, tracking_identifier: 'T-2' },
      A(),
    );
    expect(r.status).toBe(200);
    // the published TrainingCreditCodesUpdate answer: what the request added and removed; the resulting lists as extensions
    expect(r.body).toMatchObject({
      student_groups: { add: [g2, g3], remove: [g1, g3] },
      offers: { add: [o1, o2], remove: [] },
      student_group_ids: [g2],
      offer_ids: [o1, o2],
      available_for_all_offers: false,
      tracking_identifier: 'T-2',
      credits_total: 10,
    });

    const before = await rows();
    for (const [body, errors] of [
      [{ student_groups: { remove: [g2] } }, { student_groups: ['At least one student group is required when available_to_all_students is false.'] }],
      [{ offers: { remove: [o1, o2] } }, { offers: ['At least one offer is required when available_for_all_offers is false.'] }],
      [{ student_groups: { add: ['grpnope'] } }, { student_groups: ['Invalid pk "grpnope" - object does not exist.'] }],
      [{ student_groups: [g1] }, { student_groups: [expect.stringContaining('Expected a dictionary')] }],
      [{ offers: { add: 'x' } }, { offers: [expect.stringContaining('add: Expected a list')] }],
      [{ offers: { add: [''] } }, { offers: ['add: This field may not be blank.'] }],
      [{ available_to_all_students: 'no' }, { available_to_all_students: ['Must be a valid boolean.'] }],
    ] as [Record<string, unknown>, unknown][]) {
      const bad = await t.patch(`/v1/training-credit-codes/${c.id}`, body, A());
      expect({ body, status: bad.status, errors: bad.body }).toEqual({ body, status: 400, errors });
    }
    expect(await rows()).toEqual(before);
    // the read shows the resulting lists as its published schema has them
    const { student_group_ids, offer_ids, student_groups: _g, offers: _o, ...rest } = r.body;
    expect((await t.get(`/v1/training-credit-codes/${c.id}`, A())).body).toEqual({ ...rest, student_groups: student_group_ids, offers: offer_ids });

    // opening the code lets the lists go
    const opened = await t.patch(`/v1/training-credit-codes/${c.id}`, { available_to_all_students: true, student_groups: { remove: [g2] } }, A());
    expect(opened.body).toMatchObject({ available_to_all_students: true, student_groups: { add: [], remove: [g2] }, student_group_ids: [] });

    // credits used (as a checkout leaves them) bound credits_total from below
    await t.ds.query(`UPDATE training_credit_codes SET credits_used = 7 WHERE organization_id = $1 AND code = $2`, [orgUuid(org), c.training_credit_code]);
    const low = await t.patch(`/v1/training-credit-codes/${c.id}`, { credits_total: 6 }, A());
    expect(low.body).toEqual({ credits_total: ['Ensure this value is greater than or equal to the 7 credits already used.'] });
    const ok = await t.patch(`/v1/training-credit-codes/${c.id}`, { credits_total: 7, expiration_date: null }, A());
    expect(ok.body).toMatchObject({ credits_total: 7, credits_used: 7, credits_remaining: 0, expiration_date: null });

    expect((await t.patch(`/v1/training-credit-codes/${c.id}`, { credits_total: 100 }, B())).status).toBe(404);
    // no PUT and no DELETE in the published API: 405 (CONVENTIONS §16)
    expect((await t.request('PUT', `/v1/training-credit-codes/${c.id}`, { ...A(), body: { credits_total: 1 } })).status).toBe(405);
    expect((await t.delete(`/v1/training-credit-codes/${c.id}`, A())).status).toBe(405);
  });
});
