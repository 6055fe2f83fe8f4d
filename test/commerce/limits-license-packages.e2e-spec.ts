import { decodeId, encodeId } from '../../src/core/ids/ids';
import type { CreatedOrg } from '../../src/modules/organizations/organizations.service';
import { startTestApp, TestApp } from '../support/app';
import { domainOf, orgUuid } from '../support/fixtures';
import { journey } from '../support/learner-journey';

/** /v1/license-packages and their students (CONVENTIONS §11; docs/decisions/commerce-limits.md). */
describe('/v1 license packages and seats', () => {
  let t: TestApp;
  let org: CreatedOrg;
  let other: CreatedOrg;
  let domainId: string;
  const A = () => ({ basic: org.api_key });
  const B = () => ({ basic: other.api_key });

  const offers = async (count: number, o: CreatedOrg = org): Promise<string[]> => {
    const out: string[] = [];
    const j = journey(t, o);
    for (let i = 0; i < count; i++) {
      const c = await j.course([{}]);
      out.push((await t.get(`/v1/domains/${o.domain_name}/published-courses/${c.publishedCourseId}`, { basic: o.api_key })).body.offer.id);
    }
    return out;
  };
  const pkg = async (body: Record<string, unknown> = {}) => {
    const r = await t.post('/v1/license-packages', { domain_id: domainId, name: `Pkg ${Math.random()}`, license_count: 2, ...body }, A());
    expect(r.status).toBe(201);
    return r.body;
  };
  const learner = async (o: CreatedOrg = org) => journey(t, o).learner();
  const rows = async () =>
    (
      await t.ds.query(
        `SELECT (SELECT count(*)::int FROM license_packages WHERE organization_id = $1) AS packages,
                (SELECT count(*)::int FROM license_seats WHERE organization_id = $1) AS seats,
                (SELECT count(*)::int FROM license_seats WHERE organization_id = $1 AND active) AS active,
                (SELECT count(*)::int FROM enrollments WHERE organization_id = $1) AS enrollments`,
        [orgUuid(org)],
      )
    )[0];

  beforeAll(async () => {
    t = await startTestApp();
    org = await t.newOrg();
    other = await t.newOrg();
    domainId = encodeId('domain', (await domainOf(t, org)).uuid);
  });
  afterAll(() => t.close());

  it('creates, reads, lists, partially updates and deletes a package', async () => {
    const [o1, o2] = await offers(2);
    const created = await pkg({ name: 'Acme seats', license_count: 3, tracking_id: 'SF-1', offers: [o1], end_date: '2030-01-01T00:00:00Z', max_unique_seats: 10 });
    expect(created).toEqual({
      id: expect.stringMatching(/^lpkg[0-9a-z]{25}$/),
      name: 'Acme seats',
      license_count: 3,
      tracking_id: 'SF-1',
      start_date: expect.any(String),
      end_date: '2030-01-01T00:00:00.000Z',
      domain_id: domainId,
      license_seats_remaining: 3,
      offer_ids: [o1],
      max_unique_seats: 10,
    });
    expect(Math.abs(Date.parse(created.start_date) - Date.now())).toBeLessThan(60_000);
    expect((await t.get(`/v1/license-packages/${created.id}`, A())).body).toEqual(created);
    const second = await pkg({ start_date: '2026-01-01T00:00:00Z' });
    expect(second.start_date).toBe('2026-01-01T00:00:00.000Z');
    const list = await t.get('/v1/license-packages?page_size=1', A());
    expect(list.body).toMatchObject({ count: 2, next: expect.stringContaining('page=2') });
    expect(list.body.results[0]).toEqual(created);

    const patched = await t.patch(`/v1/license-packages/${created.id}`, { name: 'Renamed', offers: [o2], license_count: 5, end_date: null, max_unique_seats: null }, A());
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ name: 'Renamed', offer_ids: [o2], license_count: 5, license_seats_remaining: 5, end_date: null, max_unique_seats: null, tracking_id: 'SF-1' });
    // no PUT in the published API: 405 (CONVENTIONS §16)
    expect((await t.request('PUT', `/v1/license-packages/${created.id}`, { ...A(), body: { name: 'x' } })).status).toBe(405);

    expect((await t.get(`/v1/license-packages/${created.id}`, B())).status).toBe(404);
    expect((await t.delete(`/v1/license-packages/${created.id}`, B())).status).toBe(404);
    expect((await t.delete(`/v1/license-packages/${created.id}`, A())).status).toBe(204);
    expect((await t.get(`/v1/license-packages/${created.id}`, A())).status).toBe(404);
  });

  it('refuses bad package bodies with a 400 naming the member, creating and changing nothing', async () => {
    const foreignDomain = encodeId('domain', (await domainOf(t, other)).uuid);
    const [foreignOffer] = await offers(1, other);
    const before = await rows();
    for (const [body, errors] of [
      [{ name: 'x', license_count: 1 }, { domain_id: ['This field is required.'] }],
      [{ domain_id: domainId, license_count: 1 }, { name: ['This field is required.'] }],
      [{ domain_id: domainId, name: 'x' }, { license_count: ['This field is required.'] }],
      [{ domain_id: domainId, name: 'x', license_count: -1 }, { license_count: ['Ensure this value is greater than or equal to 0.'] }],
      [{ domain_id: domainId, name: '', license_count: 1 }, { name: ['This field may not be blank.'] }],
      [{ domain_id: domainId, name: 'x'.repeat(501), license_count: 1 }, { name: ['Ensure this field has no more than 500 characters.'] }],
      [{ domain_id: foreignDomain, name: 'x', license_count: 1 }, { domain_id: [`Invalid pk "${foreignDomain}" - object does not exist.`] }],
      [{ domain_id: domainId, name: 'x', license_count: 1, offers: [foreignOffer] }, { offers: [`Invalid pk "${foreignOffer}" - object does not exist.`] }],
      [{ domain_id: domainId, name: 'x', license_count: 1, start_date: '2030-01-01T00:00:00Z', end_date: '2029-01-01T00:00:00Z' }, { end_date: ['end_date must be after start_date.'] }],
      [{ domain_id: domainId, name: 'x', license_count: 1, max_unique_seats: -2 }, { max_unique_seats: ['Ensure this value is greater than or equal to 0.'] }],
    ] as [Record<string, unknown>, unknown][]) {
      const r = await t.post('/v1/license-packages', body, A());
      expect({ body, status: r.status, errors: r.body }).toEqual({ body, status: 400, errors });
    }
    expect(await rows()).toEqual(before);
  });

  it('seats: add by id or email (enrolls nobody), one active seat per student, never more than license_count, deactivate and reactivate', async () => {
    const [o1] = await offers(1);
    const p = await pkg({ license_count: 2, offers: [o1] });
    const [s1, s2, s3] = [await learner(), await learner(), await learner()];
    const before = await rows();
    const byId = await t.post(`/v1/license-packages/${p.id}/students`, { student: { id: s1.id } }, A());
    expect(byId.status).toBe(201);
    expect(byId.body).toEqual({
      id: expect.stringMatching(/^lseat[0-9a-z]{25}$/),
      student: { id: s1.id, first_name: 'Ada', last_name: 'Lovelace', email: s1.email },
      enrolled_at: expect.any(String),
      active: true,
    });
    const byEmail = await t.post(`/v1/license-packages/${p.id}/students`, { student: { email: s2.email.toUpperCase() } }, A());
    expect(byEmail.status).toBe(201);
    expect(byEmail.body.student.id).toBe(s2.id);
    expect((await t.get(`/v1/license-packages/${p.id}`, A())).body.license_seats_remaining).toBe(0);
    // a seat enrolls nobody
    expect((await rows()).enrollments).toBe(before.enrollments);

    const full = await t.post(`/v1/license-packages/${p.id}/students`, { student: { id: s3.id } }, A());
    expect(full.status).toBe(400);
    expect(full.body).toEqual({ student: ['No license seats are left in this license package.'] });
    const again = await t.post(`/v1/license-packages/${p.id}/students`, { student: { id: s1.id } }, A());
    expect(again.body).toEqual({ student: ['This student already holds a seat in this license package.'] });

    const list = await t.get(`/v1/license-packages/${p.id}/students`, A());
    expect(list.body).toMatchObject({ count: 2, next: null });
    expect(list.body.results.map((r: any) => r.student.id)).toEqual([s1.id, s2.id]);

    // deactivating frees a seat; the seat is still listed
    const off = await t.request('PUT', `/v1/license-packages/${p.id}/students/${s1.id}`, { ...A(), body: { active: false } });
    expect(off.status).toBe(200);
    expect(off.body).toMatchObject({ id: byId.body.id, active: false, student: { id: s1.id } });
    expect((await t.get(`/v1/license-packages/${p.id}`, A())).body.license_seats_remaining).toBe(1);
    expect((await t.post(`/v1/license-packages/${p.id}/students`, { student: { id: s3.id } }, A())).status).toBe(201);
    // reactivating needs a free seat
    const on = await t.patch(`/v1/license-packages/${p.id}/students/${s1.id}`, { active: true }, A());
    expect(on.status).toBe(400);
    expect(on.body).toEqual({ active: ['No license seats are left in this license package.'] });
    // license_count cannot go below the active seats; raising it lets the reactivation through
    expect((await t.patch(`/v1/license-packages/${p.id}`, { license_count: 1 }, A())).body).toEqual({ license_count: ['Ensure this value is greater than or equal to the 2 active seats.'] });
    expect((await t.patch(`/v1/license-packages/${p.id}`, { license_count: 3 }, A())).status).toBe(200);
    const reactivated = await t.post(`/v1/license-packages/${p.id}/students`, { student: { id: s1.id } }, A());
    expect(reactivated.status).toBe(201);
    expect(reactivated.body).toMatchObject({ id: byId.body.id, active: true, enrolled_at: byId.body.enrolled_at });
    expect((await t.get(`/v1/license-packages/${p.id}`, A())).body.license_seats_remaining).toBe(0);

    // unknown students and seats
    expect((await t.patch(`/v1/license-packages/${p.id}/students/stunope`, { active: true }, A())).status).toBe(404);
    const notSeated = await learner();
    expect((await t.patch(`/v1/license-packages/${p.id}/students/${notSeated.id}`, { active: false }, A())).status).toBe(404);
    expect((await t.get(`/v1/license-packages/${p.id}/students`, B())).status).toBe(404);
    expect((await t.post(`/v1/license-packages/${p.id}/students`, { student: { id: s1.id } }, B())).status).toBe(404);
  });

  it('max_unique_seats caps the students ever seated; bad seat bodies are a 400 changing nothing', async () => {
    const p = await pkg({ license_count: 5, max_unique_seats: 1 });
    const [s1, s2] = [await learner(), await learner()];
    expect((await t.post(`/v1/license-packages/${p.id}/students`, { student: { id: s1.id } }, A())).status).toBe(201);
    await t.patch(`/v1/license-packages/${p.id}/students/${s1.id}`, { active: false }, A());
    const capped = await t.post(`/v1/license-packages/${p.id}/students`, { student: { id: s2.id } }, A());
    expect(capped.body).toEqual({ student: ['This license package has reached its maximum number of unique seats.'] });
    expect((await t.patch(`/v1/license-packages/${p.id}`, { max_unique_seats: 0 }, A())).body).toEqual({
      max_unique_seats: ['Ensure this value is greater than or equal to the 1 students already seated.'],
    });

    const q = await pkg({ license_count: 5 });
    const foreign = await learner(other);
    const before = await rows();
    for (const [body, errors] of [
      [{}, { student: ['This field is required.'] }],
      [{ student: {} }, { student: ['Either id or email is required.'] }],
      [{ student: 'x' }, { student: [expect.stringContaining('Expected a dictionary')] }],
      [{ student: { email: 'not-an-email' } }, { student: ['email: Enter a valid email address.'] }],
      [{ student: { email: 'nobody@example.test' } }, { student: ['No student with this email exists.'] }],
      [{ student: { id: foreign.id } }, { student: [`Invalid pk "${foreign.id}" - object does not exist.`] }],
      [{ student: { id: 5 } }, { student: ['id: Not a valid string.'] }],
    ] as [Record<string, unknown>, unknown][]) {
      const r = await t.post(`/v1/license-packages/${q.id}/students`, body, A());
      expect({ body, status: r.status, errors: r.body }).toEqual({ body, status: 400, errors });
    }
    const s = await learner();
    await t.post(`/v1/license-packages/${q.id}/students`, { student: { id: s.id } }, A());
    expect((await t.patch(`/v1/license-packages/${q.id}/students/${s.id}`, { active: 'no' }, A())).body).toEqual({ active: ['Must be a valid boolean.'] });
    expect((await rows()).seats).toBe(before.seats + 1);
  });

  it('parallel adds to a package with S seats seat exactly S students (the package row lock)', async () => {
    const S = 4;
    const p = await pkg({ license_count: S });
    const students = await Promise.all(Array.from({ length: 12 }, () => learner()));
    const results = await Promise.all(students.map((s) => t.post(`/v1/license-packages/${p.id}/students`, { student: { id: s.id } }, A())));
    expect(results.filter((r) => r.status === 201)).toHaveLength(S);
    expect(results.filter((r) => r.status === 400)).toHaveLength(students.length - S);
    for (const r of results.filter((x) => x.status === 400)) expect(r.body).toEqual({ student: ['No license seats are left in this license package.'] });
    const [{ n }] = await t.ds.query(`SELECT count(*)::int AS n FROM license_seats WHERE organization_id = $1 AND package_id = $2 AND active`, [orgUuid(org), decodeId('licensePackage', p.id)]);
    expect(n).toBe(S);
    expect((await t.get(`/v1/license-packages/${p.id}`, A())).body.license_seats_remaining).toBe(0);

    // parallel reactivations of deactivated seats after freeing two: exactly two get back in
    for (const r of results.filter((x) => x.status === 201)) {
      await t.patch(`/v1/license-packages/${p.id}/students/${r.body.student.id}`, { active: false }, A());
    }
    const seated = results.filter((x) => x.status === 201).map((r) => r.body.student.id);
    await t.patch(`/v1/license-packages/${p.id}`, { license_count: 2 }, A());
    const back = await Promise.all(seated.map((id) => t.patch(`/v1/license-packages/${p.id}/students/${id}`, { active: true }, A())));
    expect(back.filter((r) => r.status === 200)).toHaveLength(2);
    expect((await t.get(`/v1/license-packages/${p.id}`, A())).body.license_seats_remaining).toBe(0);
  });
});
