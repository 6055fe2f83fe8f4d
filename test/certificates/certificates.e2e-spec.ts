import type { CreatedOrg } from '../../src/modules/organizations/organizations.service';
import { startTestApp, TestApp } from '../support/app';
import { insertCourse, insertDomain, insertStudent, issueCertificate, publishCourse } from '../support/fixtures';

describe('/v2/certificates', () => {
  let t: TestApp;
  let org: CreatedOrg;
  let other: CreatedOrg;

  beforeAll(async () => {
    t = await startTestApp();
    org = await t.newOrg();
    other = await t.newOrg();
  });
  afterAll(() => t.close());

  const ids = async (tk: string, q = '') => {
    const res = await t.get(`/v2/certificates/${q ? `?${q}` : ''}`, { token: tk });
    expect(res.status).toBe(200);
    // rows made within one millisecond are ordered by id: compare as sets
    return res.body.data.map((d: any) => d.id).sort();
  };

  it('401 without a token, 403 without certificates:read', async () => {
    const s = await insertStudent(t, org);
    const c = await insertCourse(t, org);
    const cert = await issueCertificate(t, org, s.uuid, c.uuid);
    expect((await t.get('/v2/certificates/')).status).toBe(401);
    expect((await t.get(`/v2/certificates/${cert.id}`)).status).toBe(401);
    const wrong = await t.tokenFor(org, ['courses:read', 'analytics:read']);
    expect((await t.get('/v2/certificates/', { token: wrong })).status).toBe(403);
    expect((await t.get(`/v2/certificates/${cert.id}`, { token: wrong })).status).toBe(403);
  });

  it('reads and lists only the organization certificates, with status and relationships', async () => {
    const o = await t.newOrg();
    const tk = await t.tokenFor(o, ['certificates:read']);
    const s = await insertStudent(t, o);
    const c = await insertCourse(t, o);
    const issued = new Date('2025-03-01T10:00:00Z');
    const mine = await issueCertificate(t, o, s.uuid, c.uuid, { issued_at: issued, score: 87 });
    const theirs = await issueCertificate(t, other, (await insertStudent(t, other)).uuid, (await insertCourse(t, other)).uuid);
    expect(await ids(tk)).toEqual([mine.id].sort());
    const res = await t.get(`/v2/certificates/${mine.id}`, { token: tk });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      type: 'certificates',
      id: mine.id,
      attributes: { issued_at: issued.toISOString(), expires_at: null, score_as_percent: 87, status: 'active', code: expect.stringMatching(/^CERT-/) },
      relationships: { student: { data: { type: 'students', id: s.id } }, course: { data: { type: 'courses', id: c.id } } },
    });
    for (const id of [theirs.id, 'garbage', s.id, 'cert_' + 'A'.repeat(22)]) {
      const r = await t.get(`/v2/certificates/${id}`, { token: tk });
      expect(r.status).toBe(404);
      expect(r.body.errors[0].code).toBe('not_found');
    }
    expect((await t.get(`/v2/certificates/${theirs.id}`, { token: await t.tokenFor(other, ['certificates:read']) })).status).toBe(200);
  });

  it('filters by status, issue time, student, course and domains', async () => {
    const o = await t.newOrg();
    const tk = await t.tokenFor(o, ['certificates:read']);
    const s1 = await insertStudent(t, o);
    const s2 = await insertStudent(t, o);
    const c1 = await insertCourse(t, o);
    const c2 = await insertCourse(t, o);
    const d1 = await insertDomain(t, o, `c1-${Date.now()}.test`);
    const d2 = await insertDomain(t, o, `c2-${Date.now()}.test`);
    const p2 = await publishCourse(t, o, c2.uuid, d2.uuid);
    const past = new Date(Date.now() - 86_400_000);
    const future = new Date(Date.now() + 86_400_000);
    const a = await issueCertificate(t, o, s1.uuid, c1.uuid, { issued_at: new Date('2024-01-10T00:00:00Z'), domain_uuid: d1.uuid });
    const b = await issueCertificate(t, o, s1.uuid, c2.uuid, { issued_at: new Date('2024-02-10T00:00:00Z'), expires_at: past, published_uuid: p2.uuid });
    const c = await issueCertificate(t, o, s2.uuid, c1.uuid, { issued_at: new Date('2024-03-10T00:00:00Z'), expires_at: future });
    const theirStudent = await insertStudent(t, other);
    const theirCourse = await insertCourse(t, other);

    expect(await ids(tk)).toEqual([a.id, b.id, c.id].sort());
    expect(await ids(tk, 'filter[status]=all')).toEqual([a.id, b.id, c.id].sort());
    expect(await ids(tk, 'filter[status]=active')).toEqual([a.id, c.id].sort());
    expect(await ids(tk, 'filter[status]=expired')).toEqual([b.id].sort());
    expect((await t.get(`/v2/certificates/${b.id}`, { token: tk })).body.data.attributes.status).toBe('expired');
    expect(await ids(tk, `filter[issued_gte]=${encodeURIComponent('2024-02-10T00:00:00Z')}`)).toEqual([b.id, c.id].sort());
    expect(await ids(tk, `filter[issued_lte]=${encodeURIComponent('2024-02-10T00:00:00Z')}`)).toEqual([a.id, b.id].sort());
    expect(await ids(tk, `filter[issued_gte]=${encodeURIComponent('2024-02-01T00:00:00+01:00')}&filter[issued_lte]=2024-02-28T00:00:00`)).toEqual([b.id].sort());
    expect(await ids(tk, `filter[student.id]=${s2.id}`)).toEqual([c.id].sort());
    expect(await ids(tk, `filter[course.id]=${c1.id}`)).toEqual([a.id, c.id].sort());
    expect(await ids(tk, `filter[course.id]=${c1.id}&filter[student.id]=${s1.id}`)).toEqual([a.id].sort());
    for (const q of [`filter[student.id]=${theirStudent.id}`, 'filter[student.id]=nope', `filter[student.id]=${c1.id}`, `filter[course.id]=${theirCourse.id}`, 'filter[course.id]=zzz']) {
      expect(await ids(tk, q)).toEqual([].sort());
    }
    expect(await ids(tk, `filter[domains]=${d1.name}`)).toEqual([a.id].sort());
    expect(await ids(tk, `filter[domains]=${d2.name.toUpperCase()}`)).toEqual([b.id].sort());
    expect(await ids(tk, `filter[domains]=${encodeURIComponent(`${d1.name},${d2.name},nope.test`)}`)).toEqual([a.id, b.id].sort());
    expect(await ids(tk, 'filter[domains]=nope.test')).toEqual([].sort());
    const theirDomain = (await t.ds.query(`SELECT name FROM domains WHERE organization_id = (SELECT organization_id FROM users WHERE id = $1)`, [theirStudent.uuid]))[0].name;
    expect(await ids(tk, `filter[domains]=${theirDomain}`)).toEqual([].sort());

    for (const [q, param] of [
      ['filter[status]=revoked', 'filter[status]'],
      ['filter[status]=ACTIVE', 'filter[status]'],
      ['filter[issued_gte]=soon', 'filter[issued_gte]'],
      ['filter[issued_lte]=2024-02-30T00:00:00Z', 'filter[issued_lte]'],
      ['filter[issued_lte]=2024-01-01&filter[issued_lte]=2024-01-02', 'filter[issued_lte]'],
      ['filter[student.id]=a&filter[student.id]=b', 'filter[student.id]'],
      ['page[size]=-1', 'page[size]'],
    ]) {
      const res = await t.get(`/v2/certificates/?${q}`, { token: tk });
      expect(res.status).toBe(422);
      expect(res.body.errors[0]).toMatchObject({ code: 'validation_error', source: { parameter: param } });
    }
    expect((await t.get('/v2/certificates/?page[cursor]=x', { token: tk })).status).toBe(400);
  });

  it('paginates with a cursor, filters kept across pages', async () => {
    const o = await t.newOrg();
    const tk = await t.tokenFor(o, ['certificates:read']);
    const s = await insertStudent(t, o);
    const c = await insertCourse(t, o);
    const want: string[] = [];
    for (let i = 0; i < 5; i++) want.push((await issueCertificate(t, o, s.uuid, c.uuid)).id);
    await issueCertificate(t, o, s.uuid, c.uuid, { expires_at: new Date(Date.now() - 1000) });
    const seen: string[] = [];
    let url: string | null = '/v2/certificates/?page[size]=2&filter[status]=active';
    while (url) {
      const res: any = await t.get(url, { token: tk });
      expect(res.status).toBe(200);
      seen.push(...res.body.data.map((d: any) => d.id));
      url = res.body.links.next ? new URL(res.body.links.next).pathname + new URL(res.body.links.next).search : null;
    }
    const all = (await t.get('/v2/certificates/?page[size]=100&filter[status]=active', { token: tk })).body.data.map((d: any) => d.id);
    expect(seen).toEqual(all);
    expect([...seen].sort()).toEqual([...want].sort());
  });
});
