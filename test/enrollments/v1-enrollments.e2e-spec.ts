import { startTestApp, TestApp } from '../support/app';
import { enroll, insertCourse, insertStudent, orgUuid, publishCourse, rate } from '../support/fixtures';
import { encodeId } from '../../src/core/ids/ids';
import type { CreatedOrg } from '../../src/modules/organizations/organizations.service';
import { drfFlat } from '../support/drf';

/** /v1/domains/{d}/published-courses/{pc}/enrollments */
describe('/v1 published-course enrollments', () => {
  let t: TestApp;
  let org: CreatedOrg;
  let token: string;
  const modes = () =>
    [
      ['api key', { basic: org.api_key }],
      ['bearer', { token }],
    ] as const;

  const join = async (o: CreatedOrg, userUuid: string, domainName = o.domain_name) => {
    await t.ds.query(`INSERT INTO domain_users (organization_id, domain_id, user_id) SELECT organization_id, id, $2 FROM domains WHERE lower(name) = lower($1)`, [domainName, userUuid]);
  };
  const setup = async (o: CreatedOrg = org) => {
    const c = await insertCourse(t, o, { title: 'Enrollable' });
    const pc = await publishCourse(t, o, c.uuid);
    const [row] = await t.ds.query(`SELECT slug FROM published_courses WHERE id = $1`, [pc.uuid]);
    return { c, pc, slug: row.slug as string, base: `/v1/domains/${o.domain_name}/published-courses/${pc.id}/enrollments` };
  };
  const events = (type: string, orgId = orgUuid(org)) => t.ds.query(`SELECT payload FROM outbox_events WHERE organization_id = $1 AND event_type = $2 ORDER BY created_at`, [orgId, type]);

  beforeAll(async () => {
    t = await startTestApp();
    org = await t.newOrg();
    token = await t.tokenFor(org);
  });
  afterAll(() => t.close());

  it('create enrolls a domain user (201), records COURSE_ENROLLMENT in the outbox; shape per schema', async () => {
    const { c, pc, slug, base } = await setup();
    for (const [label, auth] of modes()) {
      const s = await insertStudent(t, org, { email: `enr-${label.replace(' ', '')}@example.test`, first_name: 'Ada', last_name: 'L' });
      await join(org, s.uuid);
      const before = (await events('COURSE_ENROLLMENT')).length;
      const res = await t.post(base, { user: { id: s.id }, expires_at: '2030-01-01T00:00:00Z' }, auth);
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        id: expect.stringMatching(/^[0-9a-z]+$/),
        user: { id: s.id, email: `enr-${label.replace(' ', '')}@example.test`, first_name: 'Ada', last_name: 'L', full_name: 'Ada L' },
        enrolled_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        expires_at: '2030-01-01T00:00:00.000Z',
        active: true,
        // the registration's $0 purchase (docs/decisions/commerce.md, enrollments made without checkout)
        purchase: expect.objectContaining({
          purchase_price: { amount: '0.00', currency_code: 'USD' },
          purchase_state: 'SUCCESS',
          payment_processor: 'NONE',
          purchase_id: expect.stringMatching(/^pur/),
        }),
        rating: null,
        feedback: null,
      });
      const ev = await events('COURSE_ENROLLMENT');
      expect(ev.length).toBe(before + 1);
      expect(ev[ev.length - 1].payload).toMatchObject({
        event_type: 'COURSE_ENROLLMENT',
        user: { id: s.id, email: res.body.user.email, first_name: 'Ada', last_name: 'L' },
        course: { id: c.id, published_course_id: pc.id, title: 'Enrollable', url: `https://${org.domain_name}/${slug}` },
        domain: { id: expect.stringMatching(/^[0-9a-z]+$/), name: org.domain_name },
      });
    }
  });

  it('create is idempotent for the same user and enrolled_at (and for a live enrollment without enrolled_at)', async () => {
    const { base } = await setup();
    const s = await insertStudent(t, org);
    await join(org, s.uuid);
    const before = (await events('COURSE_ENROLLMENT')).length;
    const first = await t.post(base, { user: { id: s.id }, enrolled_at: '2025-05-05T10:00:00Z' }, { token });
    expect(first.status).toBe(201);
    const again = await t.post(base, { user: { id: s.id }, enrolled_at: '2025-05-05T10:00:00.000Z' }, { basic: org.api_key });
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(first.body.id);
    const noDate = await t.post(base, { user: { id: s.id } }, { token });
    expect(noDate.status).toBe(200);
    expect(noDate.body.id).toBe(first.body.id);
    // concurrent duplicates collapse into one
    const dupes = await Promise.all([1, 2, 3].map(() => t.post(base, { user: { id: s.id }, enrolled_at: '2026-01-01T00:00:00Z' }, { token })));
    expect(new Set(dupes.map((d) => d.body.id)).size).toBe(1);
    expect(dupes.map((d) => d.status).sort()).toEqual([200, 200, 201]);
    const [n] = await t.ds.query(`SELECT count(*)::int AS n FROM enrollments WHERE user_id = $1`, [s.uuid]);
    expect(n.n).toBe(2);
    expect((await events('COURSE_ENROLLMENT')).length).toBe(before + 2);
    // after deactivation, a create without enrolled_at enrolls again
    await t.patch(`${base}/${first.body.id}`, { active: false }, { token });
    await t.patch(`${base}/${dupes[0].body.id}`, { active: false }, { token });
    const re = await t.post(base, { user: { id: s.id } }, { token });
    expect(re.status).toBe(201);
    expect(re.body.id).not.toBe(first.body.id);
  });

  it('a user not on the domain, an unknown user and bad bodies are 400 and write no event', async () => {
    const { base } = await setup();
    const outsider = await insertStudent(t, org);
    const member = await insertStudent(t, org);
    await join(org, member.uuid);
    const other = await t.newOrg();
    const foreign = await insertStudent(t, other);
    await join(other, foreign.uuid);
    const before = (await events('COURSE_ENROLLMENT')).length;
    const cases: [unknown, string][] = [
      [{ user: { id: outsider.id } }, 'user'],
      [{ user: { id: foreign.id } }, 'user'],
      [{ user: { id: 'stu_nope' } }, 'user'],
      [{ user: 'x' }, 'user'],
      [{}, 'user'],
      [{ user: { id: member.id }, enrolled_at: 'yesterday' }, 'enrolled_at'],
      [{ user: { id: member.id }, enrolled_at: null }, 'enrolled_at'],
      [{ user: { id: member.id }, expires_at: 12 }, 'expires_at'],
      [{ user: { id: member.id }, active: 'yes' }, 'active'],
    ];
    for (const [body, field] of cases) {
      const res = await t.post(base, body, { token });
      expect({ body, status: res.status }).toEqual({ body, status: 400 });
      expect(drfFlat(res.body)[field]).toEqual(expect.any(Array));
    }
    expect((await events('COURSE_ENROLLMENT')).length).toBe(before);
    const [n] = await t.ds.query(`SELECT count(*)::int AS n FROM enrollments WHERE user_id IN ($1, $2, $3)`, [outsider.uuid, member.uuid, foreign.uuid]);
    expect(n.n).toBe(0);
  });

  it('list (page, page_size capped at 1000), read, update and partial update with both credentials', async () => {
    const { pc, base } = await setup();
    const students = [];
    for (let i = 0; i < 3; i++) {
      const s = await insertStudent(t, org);
      await join(org, s.uuid);
      students.push(s);
    }
    const es = [];
    for (const [i, s] of students.entries()) es.push(await enroll(t, org, s.uuid, pc, { enrolled_at: new Date(Date.UTC(2025, 0, i + 1)) }));
    await rate(t, org, (await t.ds.query(`SELECT course_id FROM published_courses WHERE id = $1`, [pc.uuid]))[0].course_id, students[0].uuid, 4, { feedback: 'good', enrollment_uuid: es[0].uuid });
    for (const [, auth] of modes()) {
      const list = await t.get(`${base}?page_size=2`, auth);
      expect(list.status).toBe(200);
      expect(list.body.count).toBe(3);
      expect(list.body.results.map((r: any) => r.id)).toEqual([es[0].id, es[1].id]);
      expect(list.body.results[0]).toMatchObject({ rating: 4, feedback: 'good' });
      expect(list.body.next).toContain('page=2');
      const p2 = await t.get(`${base}?page_size=2&page=2`, auth);
      expect(p2.body.results.map((r: any) => r.id)).toEqual([es[2].id]);
      const big = await t.get(`${base}?page_size=5000`, auth);
      expect(big.body.results).toHaveLength(3);
      const read = await t.get(`${base}/${es[1].id}`, auth);
      expect(read.status).toBe(200);
      expect(read.body).toMatchObject({ id: es[1].id, user: { id: students[1].id }, enrolled_at: '2025-01-02T00:00:00.000Z', active: true });
      expect(read.body).not.toHaveProperty('expires_at');
    }
    for (const [, auth] of modes()) {
      const patch = await t.patch(`${base}/${es[1].id}`, { active: false, expires_at: '2031-02-03T04:05:06Z' }, auth);
      expect(patch.status).toBe(200);
      expect(patch.body).toMatchObject({ id: es[1].id, active: false, expires_at: '2031-02-03T04:05:06.000Z', enrolled_at: '2025-01-02T00:00:00.000Z' });
      const put = await t.request('PUT', `${base}/${es[1].id}`, { ...auth, body: { expires_at: null, active: true } });
      expect(put.status).toBe(200);
      expect(put.body).toMatchObject({ active: true });
      expect(put.body).not.toHaveProperty('expires_at');
    }
    const [stored] = await t.ds.query(`SELECT active, expires_at FROM enrollments WHERE id = $1`, [es[1].uuid]);
    expect(stored).toEqual({ active: true, expires_at: null });
    const bad = await t.patch(`${base}/${es[1].id}`, { expires_at: 'soon' }, { token });
    expect(bad.status).toBe(400);
    expect(bad.body.expires_at).toEqual(expect.any(Array));
    expect((await t.get(`${base}/enr_garbage`, { token })).status).toBe(404);
    expect((await t.get(`${base}?page=9`, { token })).status).toBe(404);
  });

  it('401, 403 without the enrollments scope', async () => {
    const { pc, base } = await setup();
    const s = await insertStudent(t, org);
    const e = await enroll(t, org, s.uuid, pc);
    expect((await t.get(base)).status).toBe(401);
    const other = await t.tokenFor(org, ['published-courses:read', 'published-courses:write']);
    const ro = await t.tokenFor(org, ['enrollments:read']);
    expect((await t.get(base, { token: other })).status).toBe(403);
    expect((await t.get(base, { token: ro })).status).toBe(200);
    expect((await t.get(`${base}/${e.id}`, { token: ro })).status).toBe(200);
    expect((await t.post(base, { user: { id: s.id } }, { token: ro })).status).toBe(403);
    expect((await t.patch(`${base}/${e.id}`, { active: false }, { token: ro })).status).toBe(403);
    expect((await t.request('PUT', `${base}/${e.id}`, { token: ro, body: { active: false } })).status).toBe(403);
  });

  it('cross-organization: another org’s domain, published course or enrollment is 404 and unchanged', async () => {
    const other = await t.newOrg();
    const theirs = await setup(other);
    const s = await insertStudent(t, other);
    const e = await enroll(t, other, s.uuid, theirs.pc);
    expect((await t.get(theirs.base, { token })).status).toBe(404);
    expect((await t.get(`${theirs.base}/${e.id}`, { token })).status).toBe(404);
    expect((await t.patch(`${theirs.base}/${e.id}`, { active: false }, { basic: org.api_key })).status).toBe(404);
    // their published course under my domain
    const mine = `/v1/domains/${org.domain_name}/published-courses/${theirs.pc.id}/enrollments`;
    expect((await t.get(mine, { token })).status).toBe(404);
    // their enrollment id under my published course
    const my = await setup();
    expect((await t.get(`${my.base}/${e.id}`, { token })).status).toBe(404);
    expect((await t.patch(`${my.base}/${e.id}`, { active: false }, { token })).status).toBe(404);
    const [row] = await t.ds.query(`SELECT active FROM enrollments WHERE id = $1`, [e.uuid]);
    expect(row.active).toBe(true);
    // an unpublished course's enrollments are no longer reachable, but kept
    await t.delete(`/v1/domains/${org.domain_name}/published-courses/${my.pc.id}`, { token });
    expect((await t.get(my.base, { token })).status).toBe(404);
    expect(encodeId('enrollment', e.uuid)).toBe(e.id);
  });
});
