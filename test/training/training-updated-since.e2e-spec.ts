import type { CreatedOrg } from '../../src/modules/organizations/organizations.service';
import { startTestApp, TestApp } from '../support/app';
import { countQueries, planOf } from '../support/fixtures';
import { BuiltCourse, journey } from '../support/learner-journey';

/**
 * `updated_since` on the /v1 training lists (docs/decisions/data-out.md): ILT instructors,
 * multi-session events, ILT sessions, VILT session events and registrations. Changed rows only,
 * ordered by last change, each list on its (organization_id, updated_at, id) index; a bad value 400.
 */
jest.setTimeout(180_000);

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('/v1 training lists: updated_since', () => {
  let t: TestApp;
  let org: CreatedOrg;
  let course: BuiltCourse;
  const key = () => ({ basic: org.api_key });
  const session = (over: Record<string, unknown> = {}) => ({
    instructor_email: 'ina@example.test',
    lesson: course.lessonIds[0],
    display_name: 'Kick-off',
    starts_at: '2027-03-01T09:00:00Z',
    ends_at: '2027-03-01T10:30:00Z',
    timezone: 'Europe/Berlin',
    ...over,
  });

  beforeAll(async () => {
    t = await startTestApp();
    org = await t.newOrg();
    course = await journey(t, org).course([{ type: 'VILT' }]);
  });
  afterAll(async () => {
    await t?.close();
  });

  /**
   * Two rows made by `create`, the first then changed by `change` after `mid`: `updated_since=mid`
   * lists the changed one alone, an early time lists both by last change (the unchanged first), a
   * bad value is 400 naming the parameter, and the list statement reads `index`.
   */
  async function check(path: string, create: (i: number) => Promise<string>, change: (id: string) => Promise<void>, statement: RegExp, index: string) {
    const a = await create(1);
    const b = await create(2);
    await pause(5);
    const mid = new Date().toISOString();
    await pause(5);
    await change(a);
    const since = await t.get(`${path}?updated_since=${encodeURIComponent(mid)}`, key());
    expect(since.status).toBe(200);
    expect(since.body.results.map((r: any) => r.id)).toEqual([a]);
    expect(since.body.count).toBe(1);
    const early = await t.get(`${path}?updated_since=2000-01-01T00:00:00Z`, key());
    expect(early.body.results.map((r: any) => r.id).filter((id: string) => id === a || id === b)).toEqual([b, a]);
    const bad = await t.get(`${path}?updated_since=2026-01-01`, key());
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body)).toEqual(['updated_since']);
    const run = await countQueries(() => t.get(`${path}?updated_since=2000-01-01T00:00:00Z`, key()));
    expect(await planOf(t, run, statement)).toMatch(new RegExp(index));
  }

  it('/v1/ilt-instructors', async () => {
    await check(
      '/v1/ilt-instructors',
      async (i) => (await t.post('/v1/ilt-instructors', { email: `i${i}-${Date.now()}@example.test` }, key())).body.id,
      async (id) => {
        expect((await t.patch(`/v1/ilt-instructors/${id}`, { email: `changed-${Date.now()}@example.test` }, key())).status).toBe(200);
      },
      /FROM ilt_instructors i WHERE .*ORDER BY i\.updated_at/,
      'ilt_instructors_org_updated_idx',
    );
  });

  it('/v1/ilt-multi-session-events', async () => {
    await check(
      '/v1/ilt-multi-session-events',
      async (i) => (await t.post('/v1/ilt-multi-session-events', { lesson: course.lessonIds[0], display_name: `Bootcamp ${i}` }, key())).body.id,
      async (id) => {
        expect((await t.patch(`/v1/ilt-multi-session-events/${id}`, { display_name: 'Renamed' }, key())).status).toBe(200);
      },
      /FROM vilt_sessions\s+WHERE .*ORDER BY updated_at/,
      'vilt_sessions_multi_updated_idx',
    );
  });

  it('/v1/ilt-sessions and /v1/vilt-session-events', async () => {
    const made: string[] = [];
    await check(
      '/v1/ilt-sessions',
      async (i) => {
        const res = await t.post('/v1/ilt-sessions', session({ display_name: `Session ${i}` }), key());
        expect(res.status).toBe(201);
        made.push(res.body.id);
        return res.body.id;
      },
      async (id) => {
        expect(
          (await t.request('PUT', `/v1/ilt-sessions/${id}`, { ...key(), body: session({ display_name: 'Moved', starts_at: '2027-03-02T09:00:00Z', ends_at: '2027-03-02T10:00:00Z' }) })).status,
        ).toBe(200);
      },
      /FROM vilt_session_events e\s.*ORDER BY e\.updated_at/s,
      'vilt_session_events_org_updated_idx',
    );
    // the same meetings on /v1/vilt-session-events, by last change
    const events = await t.get(`/v1/vilt-session-events?updated_since=2000-01-01T00:00:00Z`, key());
    expect(events.status).toBe(200);
    expect(events.body.results.map((r: any) => r.id).filter((id: string) => made.includes(id))).toEqual([made[1], made[0]]);
    expect((await t.get(`/v1/vilt-session-events?updated_since=nope`, key())).status).toBe(400);
  });

  it('/v1/vilt-session-registrations', async () => {
    const j = journey(t, org);
    const s = await t.post('/v1/ilt-sessions', session({ display_name: 'Registrations' }), key());
    expect(s.status).toBe(201);
    await check(
      '/v1/vilt-session-registrations',
      async () => {
        const learner = await j.learner();
        const enr = await j.enroll(learner.id, course.publishedCourseId);
        const res = await t.post('/v1/vilt-session-registrations', { vilt_session: { id: s.body.vilt_session.id }, enrollment_id: enr.id }, key());
        expect(res.status).toBe(201);
        return res.body.id;
      },
      async (id) => {
        expect((await t.patch(`/v1/vilt-session-registrations/${id}`, { attended: true }, key())).status).toBe(200);
      },
      /FROM vilt_session_registrations r\s.*ORDER BY r\.updated_at/s,
      'vilt_session_registrations_org_updated_idx',
    );
  });
});
