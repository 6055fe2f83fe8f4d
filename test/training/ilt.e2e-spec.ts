import type { CreatedOrg } from '../../src/modules/organizations/organizations.service';
import { startTestApp, TestApp } from '../support/app';
import { journey } from '../support/learner-journey';

/**
 * /v1 ILT: instructors, multi-session events and sessions, every rule of the session body
 * (resource-reference-api.md "ILT", CONVENTIONS §13), through HTTP with the organization's API key.
 * Every refused write is checked to have changed nothing.
 */
describe('/v1 ILT instructors, multi-session events and sessions', () => {
  let t: TestApp;
  let org: CreatedOrg;
  let vilt: string;
  let html: string;
  const key = () => ({ basic: org.api_key });
  const session = (over: Record<string, unknown> = {}) => ({
    instructor_email: 'ina@example.test',
    lesson: vilt,
    display_name: 'Kick-off',
    starts_at: '2027-03-01T09:00:00Z',
    ends_at: '2027-03-01T10:30:00Z',
    timezone: 'Europe/Berlin',
    ...over,
  });
  const count = async (table: string) => (await t.ds.query(`SELECT count(*)::int AS n FROM ${table}`))[0].n as number;

  beforeAll(async () => {
    t = await startTestApp();
    org = await t.newOrg();
    const c = await journey(t, org).course([{ type: 'VILT' }, { type: 'HTML' }]);
    [vilt, html] = c.lessonIds;
  });
  afterAll(async () => {
    await t?.close();
  });

  describe('instructors', () => {
    it('create, read (with id), list with exact email and provider filters, update, partial update, delete', async () => {
      const a = await t.post('/v1/ilt-instructors', { email: 'Alice@Example.test' }, key());
      expect(a.status).toBe(201);
      expect(a.body).toEqual({ id: expect.stringMatching(/^[0-9a-z]+$/), email: 'alice@example.test', name: '', providers: ['calendar'] });
      const b = await t.post('/v1/ilt-instructors', { email: 'bob@example.test' }, key());
      expect((await t.get(`/v1/ilt-instructors/${a.body.id}`, key())).body).toEqual(a.body);

      const all = await t.get('/v1/ilt-instructors', key());
      expect(all.body.count).toBe(2);
      const byEmail = await t.get('/v1/ilt-instructors?email=bob@example.test', key());
      expect(byEmail.body.results.map((r: any) => r.id)).toEqual([b.body.id]);
      expect((await t.get('/v1/ilt-instructors?email=bob@example', key())).body.count).toBe(0);

      // a zoom session makes bob a zoom.meeting instructor
      const z = await t.post('/v1/ilt-sessions', session({ instructor_email: 'bob@example.test', provider: 'zoom.meeting' }), key());
      expect(z.status).toBe(201);
      expect((await t.get('/v1/ilt-instructors?provider=zoom.meeting', key())).body.results.map((r: any) => r.id)).toEqual([b.body.id]);
      expect((await t.get('/v1/ilt-instructors?provider=calendar', key())).body.count).toBe(2);
      expect((await t.get('/v1/ilt-instructors?provider=webex.webinar', key())).body.count).toBe(0);
      expect((await t.get(`/v1/ilt-instructors/${b.body.id}`, key())).body.providers).toEqual(['calendar', 'zoom.meeting']);
      const badProvider = await t.get('/v1/ilt-instructors?provider=skype', key());
      expect(badProvider.status).toBe(400);
      expect(badProvider.body).toHaveProperty('provider');

      const put = await t.request('PUT', `/v1/ilt-instructors/${a.body.id}`, { ...key(), body: { email: 'alice2@example.test' } });
      expect(put.status).toBe(200);
      expect(put.body.email).toBe('alice2@example.test');
      const patch = await t.patch(`/v1/ilt-instructors/${a.body.id}`, {}, key());
      expect(patch.status).toBe(200);
      expect(patch.body.email).toBe('alice2@example.test');

      expect((await t.delete(`/v1/ilt-instructors/${b.body.id}`, key())).status).toBe(204);
      expect((await t.get(`/v1/ilt-instructors/${b.body.id}`, key())).status).toBe(404);
      // the zoom session keeps its instructor's address
      expect((await t.get(`/v1/ilt-sessions/${z.body.id}`, key())).body.instructor_email).toBe('bob@example.test');
    });

    it('bad input is a 400 naming the member and changes nothing; unknown ids 404', async () => {
      const before = await count('ilt_instructors');
      for (const body of [{}, { email: '' }, { email: 'not-an-address' }, { email: 'Ina <ina@example.test>' }, { email: 42 }]) {
        const res = await t.post('/v1/ilt-instructors', body, key());
        expect(res.status).toBe(400);
        expect(res.body).toHaveProperty('email');
      }
      await t.post('/v1/ilt-instructors', { email: 'dup@example.test' }, key());
      const dup = await t.post('/v1/ilt-instructors', { email: 'DUP@example.test' }, key());
      expect(dup.status).toBe(400);
      expect(dup.body.email).toEqual([expect.stringMatching(/already exists/)]);
      expect(await count('ilt_instructors')).toBe(before + 1);
      const one = (await t.get('/v1/ilt-instructors?email=dup@example.test', key())).body.results[0];
      expect((await t.request('PUT', `/v1/ilt-instructors/${one.id}`, { ...key(), body: {} })).status).toBe(400);
      expect((await t.get('/v1/ilt-instructors/nope', key())).status).toBe(404);
      expect((await t.delete('/v1/ilt-instructors/ilti0000000000000000000000000', key())).status).toBe(404);
    });
  });

  describe('multi-session events', () => {
    it('create with a live-training lesson, list, read, PUT and PATCH', async () => {
      const m = await t.post('/v1/ilt-multi-session-events', { lesson: vilt, display_name: 'Bootcamp', seats_total: 12 }, key());
      expect(m.status).toBe(201);
      expect(m.body).toEqual({ id: expect.any(String), lesson: vilt, display_name: 'Bootcamp', seats_total: 12 });
      const list = await t.get('/v1/ilt-multi-session-events?page_size=1', key());
      expect(list.body.results).toContainEqual(m.body);
      expect((await t.get(`/v1/ilt-multi-session-events/${m.body.id}`, key())).body).toEqual(m.body);
      const put = await t.request('PUT', `/v1/ilt-multi-session-events/${m.body.id}`, { ...key(), body: { lesson: vilt, display_name: 'Bootcamp II' } });
      expect(put.status).toBe(200);
      expect(put.body).toEqual({ ...m.body, display_name: 'Bootcamp II' });
      const patch = await t.patch(`/v1/ilt-multi-session-events/${m.body.id}`, { seats_total: null }, key());
      // unlimited: seats_total left out (optional, not nullable in the published IltMultiSessionEvent)
      expect(patch.body).toEqual({ ...m.body, display_name: 'Bootcamp II', seats_total: undefined });
      expect(patch.body).not.toHaveProperty('seats_total');
    });

    it('refuses a lesson that is not live training, missing members and bad seats; changes nothing', async () => {
      const before = await count('vilt_sessions');
      const cases: [Record<string, unknown>, string][] = [
        [{ lesson: html, display_name: 'X' }, 'lesson'],
        [{ lesson: 'les0000000000000000000000000', display_name: 'X' }, 'lesson'],
        [{ display_name: 'X' }, 'lesson'],
        [{ lesson: vilt }, 'display_name'],
        [{ lesson: vilt, display_name: '' }, 'display_name'],
        [{ lesson: vilt, display_name: 'X', seats_total: -1 }, 'seats_total'],
        [{ lesson: vilt, display_name: 'X', seats_total: 'many' }, 'seats_total'],
      ];
      for (const [body, field] of cases) {
        const res = await t.post('/v1/ilt-multi-session-events', body, key());
        expect([res.status, Object.keys(res.body)]).toEqual([400, [field]]);
      }
      expect(await count('vilt_sessions')).toBe(before);
      const m = await t.post('/v1/ilt-multi-session-events', { lesson: vilt, display_name: 'Y' }, key());
      expect((await t.request('PUT', `/v1/ilt-multi-session-events/${m.body.id}`, { ...key(), body: { display_name: 'Z' } })).status).toBe(400);
      expect((await t.patch(`/v1/ilt-multi-session-events/${m.body.id}`, { lesson: html }, key())).status).toBe(400);
      expect((await t.get(`/v1/ilt-multi-session-events/${m.body.id}`, key())).body.display_name).toBe('Y');
      expect((await t.get('/v1/ilt-multi-session-events/vss0000000000000000000000000', key())).status).toBe(404);
    });
  });

  describe('sessions', () => {
    it('create with a lesson: provider defaults to calendar, the display-name form of instructor_email, every member read back; list; PUT', async () => {
      const res = await t.post(
        '/v1/ilt-sessions',
        session({
          instructor_email: 'Ina Instructor <INA@example.test>',
          description: '<p>Bring a laptop</p>',
          seats_total: 3,
          location: 'Room 4',
          event_link: 'https://meet.example.test/x',
          post_registration_instructions: '<p>See you</p>',
          tags: ['intro', 'live'],
        }),
        key(),
      );
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        id: expect.stringMatching(/^[0-9a-z]+$/),
        instructor_email: 'Ina Instructor <ina@example.test>',
        provider: 'calendar',
        lesson: vilt,
        display_name: 'Kick-off',
        starts_at: '2027-03-01T09:00:00.000Z',
        ends_at: '2027-03-01T10:30:00.000Z',
        timezone: 'Europe/Berlin',
        description: '<p>Bring a laptop</p>',
        seats_total: 3,
        location: 'Room 4',
        event_link: 'https://meet.example.test/x',
        post_registration_instructions: '<p>See you</p>',
        tags: ['intro', 'live'],
        vilt_session: { id: expect.any(String) },
      });
      expect((await t.get(`/v1/ilt-sessions/${res.body.id}`, key())).body).toEqual(res.body);
      const list = await t.get('/v1/ilt-sessions?page_size=100', key());
      expect(list.body.results).toContainEqual(res.body);

      // read-modify-write: what a read returns, a PUT accepts
      const { id, vilt_session, ...writable } = res.body;
      const put = await t.request('PUT', `/v1/ilt-sessions/${id}`, {
        ...key(),
        body: { ...writable, display_name: 'Kick-off (moved)', starts_at: '2027-03-02T09:00:00Z', ends_at: '2027-03-02T10:00:00Z' },
      });
      expect(put.status).toBe(200);
      expect(put.body).toEqual({ ...res.body, display_name: 'Kick-off (moved)', starts_at: '2027-03-02T09:00:00.000Z', ends_at: '2027-03-02T10:00:00.000Z' });
      // members left out of a PUT keep their value
      const partial = await t.request('PUT', `/v1/ilt-sessions/${id}`, { ...key(), body: session() });
      expect(partial.body).toMatchObject({ location: 'Room 4', tags: ['intro', 'live'], seats_total: 3, instructor_email: 'ina@example.test' });
    });

    it('a session of a multi-session event: no seats_total or tags of its own; the event is its vilt_session', async () => {
      const m = await t.post('/v1/ilt-multi-session-events', { lesson: vilt, display_name: 'Series', seats_total: 4 }, key());
      const s1 = await t.post('/v1/ilt-sessions', session({ lesson: undefined, multi_session_event: m.body.id, display_name: 'Part 1' }), key());
      expect(s1.status).toBe(201);
      expect(s1.body).toMatchObject({ multi_session_event: m.body.id, vilt_session: { id: m.body.id } });
      expect(s1.body).not.toHaveProperty('lesson');
      expect(s1.body).not.toHaveProperty('seats_total');
      expect(s1.body).not.toHaveProperty('tags');
      const before = await count('vilt_session_events');
      for (const [over, field] of [
        [{ seats_total: 3 }, 'seats_total'],
        [{ seats_total: null }, 'seats_total'],
        [{ tags: ['x'] }, 'tags'],
      ] as [Record<string, unknown>, string][]) {
        const res = await t.post('/v1/ilt-sessions', session({ lesson: undefined, multi_session_event: m.body.id, ...over }), key());
        expect([res.status, Object.keys(res.body)]).toEqual([400, [field]]);
      }
      expect(await count('vilt_session_events')).toBe(before);
      // round trip of the read
      const { id, vilt_session, ...writable } = s1.body;
      expect((await t.request('PUT', `/v1/ilt-sessions/${id}`, { ...key(), body: writable })).status).toBe(200);
      // it cannot move to a lesson
      const moved = await t.request('PUT', `/v1/ilt-sessions/${id}`, { ...key(), body: { ...writable, multi_session_event: null, lesson: vilt } });
      expect(moved.status).toBe(400);
    });

    it('every rule of the body: 400 naming the member, nothing written', async () => {
      await t.post('/v1/ilt-instructors', { email: 'zed@example.test' }, key());
      const m = await t.post('/v1/ilt-multi-session-events', { lesson: vilt, display_name: 'Other' }, key());
      const cases: [Record<string, unknown>, string][] = [
        [session({ instructor_email: undefined }), 'instructor_email'],
        [session({ instructor_email: 'nobody' }), 'instructor_email'],
        [session({ instructor_email: 'Ina <not an address>' }), 'instructor_email'],
        // the display-name form is for calendar sessions only; other providers need an instructor account
        [session({ provider: 'zoom.meeting', instructor_email: 'Zed <zed@example.test>' }), 'instructor_email'],
        [session({ provider: 'zoom.meeting', instructor_email: 'unknown@example.test' }), 'instructor_email'],
        [session({ provider: 'skype' }), 'provider'],
        [session({ lesson: undefined }), 'non_field_errors'],
        [session({ multi_session_event: m.body.id }), 'non_field_errors'],
        [session({ lesson: html }), 'lesson'],
        [session({ lesson: 'les0000000000000000000000000' }), 'lesson'],
        [session({ lesson: undefined, multi_session_event: 'vss0000000000000000000000000' }), 'multi_session_event'],
        [session({ display_name: undefined }), 'display_name'],
        [session({ display_name: '' }), 'display_name'],
        [session({ display_name: 'x'.repeat(201) }), 'display_name'],
        [session({ starts_at: undefined }), 'starts_at'],
        [session({ starts_at: 'tomorrow' }), 'starts_at'],
        [session({ ends_at: undefined }), 'ends_at'],
        [session({ ends_at: '2027-03-01T09:00:00Z' }), 'ends_at'],
        [session({ ends_at: '2027-03-01T08:00:00Z' }), 'ends_at'],
        [session({ timezone: undefined }), 'timezone'],
        [session({ timezone: 'Mars/Olympus' }), 'timezone'],
        [session({ timezone: '+02:00' }), 'timezone'],
        [session({ seats_total: -1 }), 'seats_total'],
        [session({ provider: 'zoom.meeting', instructor_email: 'zed@example.test', location: 'Room 1' }), 'location'],
        [session({ provider: 'webex.webinar', instructor_email: 'zed@example.test', event_link: 'https://x.test' }), 'event_link'],
        [session({ event_link: 'not a url' }), 'event_link'],
        [session({ location: 'x'.repeat(101) }), 'location'],
        [session({ tags: 'a,b' }), 'tags'],
        [session({ tags: [''] }), 'tags'],
      ];
      const before = [await count('vilt_session_events'), await count('vilt_sessions')];
      for (const [body, field] of cases) {
        const res = await t.post('/v1/ilt-sessions', body, key());
        expect([JSON.stringify(body), res.status, Object.keys(res.body ?? {})]).toEqual([JSON.stringify(body), 400, [field]]);
      }
      expect([await count('vilt_session_events'), await count('vilt_sessions')]).toEqual(before);
      // the same rules on PUT, and nothing changes
      const s = await t.post('/v1/ilt-sessions', session(), key());
      const bad = await t.request('PUT', `/v1/ilt-sessions/${s.body.id}`, { ...key(), body: session({ ends_at: '2027-03-01T08:00:00Z' }) });
      expect(bad.status).toBe(400);
      expect((await t.get(`/v1/ilt-sessions/${s.body.id}`, key())).body).toEqual(s.body);
      // a non-calendar provider with a registered instructor, no location: accepted
      const zoom = await t.post('/v1/ilt-sessions', session({ provider: 'zoom.webinar', instructor_email: 'zed@example.test' }), key());
      expect(zoom.status).toBe(201);
      expect(zoom.body).toMatchObject({ provider: 'zoom.webinar', instructor_email: 'zed@example.test' });
      expect(zoom.body).not.toHaveProperty('location'); // no value: left out (CONVENTIONS §16)
      expect(zoom.body).not.toHaveProperty('event_link');
      expect((await t.request('PUT', '/v1/ilt-sessions/vse0000000000000000000000000', { ...key(), body: session() })).status).toBe(404);
      expect((await t.get('/v1/ilt-sessions/whatever', key())).status).toBe(404);
    });

    it('scopes: vilt-sessions and instructors', async () => {
      const token = await t.tokenFor(org, ['courses:read']);
      expect((await t.get('/v1/ilt-sessions', { token })).status).toBe(403);
      expect((await t.get('/v1/ilt-instructors', { token })).status).toBe(403);
      const reader = await t.tokenFor(org, ['vilt-sessions:read', 'instructors:read']);
      expect((await t.get('/v1/ilt-sessions', { token: reader })).status).toBe(200);
      expect((await t.get('/v1/ilt-instructors', { token: reader })).status).toBe(200);
      expect((await t.post('/v1/ilt-sessions', session(), { token: reader })).status).toBe(403);
    });
  });
});
