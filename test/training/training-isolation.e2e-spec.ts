import type { CreatedOrg } from '../../src/modules/organizations/organizations.service';
import { startTestApp, TestApp } from '../support/app';
import { journey } from '../support/learner-journey';

/**
 * Organization isolation of every ILT / VILT family through HTTP: another organization's objects
 * are absent from every list (also when a filter names them), 404 on every read and write by id,
 * and refused as references in a body (400 naming the member, nothing written). The isolation
 * sweep (test/platform) probes every route with a path parameter; this covers lists, filters and
 * body references.
 */
describe('ILT and VILT: organization isolation', () => {
  let t: TestApp;
  let a: CreatedOrg;
  let b: CreatedOrg;
  const A = () => ({ basic: a.api_key });
  const B = () => ({ basic: b.api_key });
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    t = await startTestApp();
    a = await t.newOrg();
    b = await t.newOrg();
    const ja = journey(t, a);
    const c = await ja.course([{ type: 'VILT' }]);
    ids.course = c.courseId;
    ids.lesson = c.lessonIds[0];
    ids.instructor = (await t.post('/v1/ilt-instructors', { email: 'shared@example.test' }, A())).body.id;
    ids.multi = (await t.post('/v1/ilt-multi-session-events', { lesson: ids.lesson, display_name: 'A series', seats_total: 5 }, A())).body.id;
    const s = await t.post(
      '/v1/ilt-sessions',
      { instructor_email: 'shared@example.test', lesson: ids.lesson, display_name: 'A session', starts_at: '2027-01-01T10:00:00Z', ends_at: '2027-01-01T11:00:00Z', timezone: 'UTC', seats_total: 5 },
      A(),
    );
    ids.session = s.body.id;
    ids.viltSession = s.body.vilt_session.id;
    const learner = await ja.learner();
    const enr = await ja.enroll(learner.id, c.publishedCourseId);
    ids.enrollment = enr.id;
    ids.registration = (await t.post('/v1/vilt-session-registrations', { vilt_session: { id: ids.viltSession }, enrollment_id: enr.id }, A())).body.id;
  });
  afterAll(() => t?.close());

  it("lists: another organization's objects are never listed, whatever the filter", async () => {
    const lists = [
      '/v1/ilt-instructors',
      '/v1/ilt-instructors?email=shared@example.test',
      '/v1/ilt-instructors?provider=calendar',
      '/v1/ilt-multi-session-events',
      '/v1/ilt-sessions',
      '/v1/vilt-session-events',
      `/v1/vilt-session-events?session__lesson__course__id=${ids.course}`,
      `/v1/vilt-session-events?session__lesson__id=${ids.lesson}`,
      '/v1/vilt-session-events?starts_at__gte=2026-01-01T00:00:00Z',
      '/v1/vilt-session-registrations',
      `/v1/vilt-session-registrations?session__id=${ids.viltSession}`,
    ];
    for (const url of lists) {
      const mine = await t.get(url, A());
      const theirs = await t.get(url, B());
      expect([url, mine.status, mine.body.count > 0, theirs.status, theirs.body.count, theirs.body.results]).toEqual([url, 200, true, 200, 0, []]);
    }
  });

  it("by id: another organization's objects are 404 on every read and write, and stay unchanged", async () => {
    const calls: [string, string, unknown?][] = [
      ['GET', `/v1/ilt-instructors/${ids.instructor}`],
      ['PUT', `/v1/ilt-instructors/${ids.instructor}`, { email: 'x@example.test' }],
      ['PATCH', `/v1/ilt-instructors/${ids.instructor}`, { email: 'x@example.test' }],
      ['DELETE', `/v1/ilt-instructors/${ids.instructor}`],
      ['GET', `/v1/ilt-multi-session-events/${ids.multi}`],
      ['PUT', `/v1/ilt-multi-session-events/${ids.multi}`, { lesson: ids.lesson, display_name: 'x' }],
      ['PATCH', `/v1/ilt-multi-session-events/${ids.multi}`, { display_name: 'x' }],
      ['GET', `/v1/ilt-sessions/${ids.session}`],
      [
        'PUT',
        `/v1/ilt-sessions/${ids.session}`,
        { instructor_email: 'x@example.test', lesson: ids.lesson, display_name: 'x', starts_at: '2027-01-01T10:00:00Z', ends_at: '2027-01-01T11:00:00Z', timezone: 'UTC' },
      ],
      ['DELETE', `/v1/ilt-sessions/${ids.session}`],
      ['GET', `/v1/vilt-session-events/${ids.session}`],
      ['GET', `/v1/vilt-session-registrations/${ids.registration}`],
      ['PUT', `/v1/vilt-session-registrations/${ids.registration}`, { attended: true }],
      ['PATCH', `/v1/vilt-session-registrations/${ids.registration}`, { attended: true }],
      ['DELETE', `/v1/vilt-session-registrations/${ids.registration}`],
    ];
    for (const [method, url, body] of calls) {
      const res = await t.request(method, url, { ...B(), body });
      expect([method, url, res.status]).toEqual([method, url, 404]);
    }
    expect((await t.get(`/v1/ilt-instructors/${ids.instructor}`, A())).body.email).toBe('shared@example.test');
    expect((await t.get(`/v1/ilt-multi-session-events/${ids.multi}`, A())).body.display_name).toBe('A series');
    expect((await t.get(`/v1/ilt-sessions/${ids.session}`, A())).body.display_name).toBe('A session');
    expect((await t.get(`/v1/vilt-session-registrations/${ids.registration}`, A())).body.attended).toBe(false);
  });

  it("in a body: another organization's lesson, multi-session event, session and enrollment are refused (400 naming the member), nothing written", async () => {
    const jb = journey(t, b);
    const cb = await jb.course([{ type: 'VILT' }]);
    const lb = await jb.learner();
    const eb = await jb.enroll(lb.id, cb.publishedCourseId);
    const sb = await t.post(
      '/v1/ilt-sessions',
      { instructor_email: 'b@example.test', lesson: cb.lessonIds[0], display_name: 'B', starts_at: '2027-01-01T10:00:00Z', ends_at: '2027-01-01T11:00:00Z', timezone: 'UTC' },
      B(),
    );
    const count = async (table: string) => (await t.ds.query(`SELECT count(*)::int AS n FROM ${table}`))[0].n as number;
    const before = await Promise.all(['vilt_sessions', 'vilt_session_events', 'vilt_session_registrations'].map(count));
    const session = { instructor_email: 'b@example.test', display_name: 'x', starts_at: '2027-01-01T10:00:00Z', ends_at: '2027-01-01T11:00:00Z', timezone: 'UTC' };
    const cases: [string, unknown, string][] = [
      ['/v1/ilt-multi-session-events', { lesson: ids.lesson, display_name: 'x' }, 'lesson'],
      ['/v1/ilt-sessions', { ...session, lesson: ids.lesson }, 'lesson'],
      ['/v1/ilt-sessions', { ...session, multi_session_event: ids.multi }, 'multi_session_event'],
      ['/v1/vilt-session-registrations', { vilt_session: { id: ids.viltSession }, enrollment_id: eb.id }, 'vilt_session'],
      ['/v1/vilt-session-registrations', { vilt_session: { id: sb.body.vilt_session.id }, enrollment_id: ids.enrollment }, 'enrollment_id'],
    ];
    for (const [url, body, field] of cases) {
      const res = await t.post(url, body, B());
      expect([url, field, res.status, Object.keys(res.body)]).toEqual([url, field, 400, [field]]);
    }
    expect(await Promise.all(['vilt_sessions', 'vilt_session_events', 'vilt_session_registrations'].map(count))).toEqual(before);
  });
});
