import { AuthService } from '../../src/core/auth/auth.service';
import type { CreatedOrg } from '../../src/modules/organizations/organizations.service';
import { authInvalidationReady } from '../auth/oauth-helpers';
import { startTestApp, TestApp } from '../support/app';
import { countQueries, enroll, insertCourse, insertLesson, insertStudent, issueCertificate, publishCourse } from '../support/fixtures';

/**
 * @FastRead (core/routes/fast-path.ts): the /v2 reads it is on answer a caller whose token is cached
 * as valid before Nest's pipeline, by calling the handler with the arguments Nest would build; the
 * answer is the guarded pipeline's, byte for byte, and every refusal (no or narrow scope, unknown id,
 * bad parameter) still comes from the guard and the handler.
 */
describe('@FastRead: /v2 reads for a cached token answer as the guarded handler does', () => {
  let t: TestApp;
  let org: CreatedOrg;
  const paths: string[] = [];
  const SCOPES = ['students:read', 'courses:read', 'lessons:read', 'published-courses:read', 'enrollments:read', 'student-groups:read', 'certificates:read'];

  beforeAll(async () => {
    t = await startTestApp({ AUTH_CACHE_SECONDS: 60 });
    org = await t.newOrg();
    await authInvalidationReady(t);
    const writer = await t.tokenFor(org, ['student-groups:write']);
    const group = await t.post('/v2/groups/', { data: [{ type: 'groups', attributes: { name: 'Fast "quoted" group \u2028 é' } }] }, { token: writer });
    expect(group.status).toBe(200);
    const student = await insertStudent(t, org, { first_name: 'Zoë 😀', last_name: 'back \\ slash' });
    const course = await insertCourse(t, org, { title: 'Title with "quotes" and \t tab' });
    const lesson = await insertLesson(t, org, course.uuid, { title: 'Lesson \u0001 one' });
    const published = await publishCourse(t, org, course.uuid);
    const enrollment = await enroll(t, org, student.uuid, published, { started: true });
    const cert = await issueCertificate(t, org, student.uuid, course.uuid, { published_uuid: published.uuid, score: 91, expires_at: new Date('2030-01-01T00:00:00Z') });
    paths.push(
      `/v2/groups/${group.body.data[0].id}`,
      '/v2/groups/?filter[name]=QUOTED&page[size]=3',
      `/v2/certificates/${cert.id}`,
      '/v2/certificates/',
      '/v2/certificates/?filter[status]=active&page[size]=1',
      `/v2/enrollments/${enrollment.id}`,
      `/v2/enrollments/${enrollment.id}?include=student,certificate`,
      '/v2/enrollments/?include=student&page[size]=5',
      `/v2/courses/${course.id}`,
      '/v2/courses/?filter[title]=quotes',
      `/v2/lessons/${lesson.id}`,
      `/v2/lessons/?filter[course_id]=${course.id}`,
      `/v2/published-courses/${published.id}`,
      `/v2/students/${student.id}`,
      '/v2/published-courses/?include=course,domain',
    );
  });
  afterAll(() => t.close());
  afterEach(() => jest.restoreAllMocks());

  const headersOf = (h: Headers) => Object.fromEntries([...h.entries()].filter(([k]) => k !== 'date' && k !== 'x-request-id'));

  it('each read: the first request (token not cached) goes through the guard, the second does not, with the same status, headers and bytes', async () => {
    for (const path of paths) {
      const token = await t.tokenFor(org, SCOPES);
      const guard = jest.spyOn(AuthService.prototype, 'authenticateFast');
      const slow = await t.get(path, { token });
      expect([path, guard.mock.calls.length]).toEqual([path, 1]);
      guard.mockClear();
      const fast = await t.get(path, { token });
      expect([path, guard.mock.calls.length]).toEqual([path, 0]);
      guard.mockRestore();
      expect([path, slow.status]).toEqual([path, 200]);
      expect(fast.status).toBe(200);
      expect(headersOf(fast.headers)).toEqual(headersOf(slow.headers));
      expect(fast.text).toBe(slow.text);
      expect(slow.headers.get('content-type')).toBe('application/vnd.api+json');
      expect(slow.body.data).toBeTruthy();
    }
  });

  it('a fast read runs its statements once: one statement per read, as through the pipeline', async () => {
    const token = await t.tokenFor(org, SCOPES);
    expect((await t.get(paths[0], { token })).status).toBe(200); // cached as valid from here on
    for (const path of paths.filter((p) => !p.includes('include='))) {
      const guard = jest.spyOn(AuthService.prototype, 'authenticateFast');
      const { result, count, statements } = await countQueries(() => t.get(path, { token }));
      expect([path, result.status, guard.mock.calls.length]).toEqual([path, 200, 0]);
      guard.mockRestore();
      expect([path, count, statements]).toEqual([path, 1, expect.any(Array)]);
    }
  });

  it('refusals come from the guard and the handler: a narrow token, an unknown or foreign id, a bad parameter', async () => {
    const token = await t.tokenFor(org, SCOPES);
    expect((await t.get(paths[0], { token })).status).toBe(200); // cached as valid from here on
    const guard = jest.spyOn(AuthService.prototype, 'authenticateFast');

    const missing = await t.get('/v2/groups/grp_' + 'A'.repeat(22), { token });
    expect(missing.status).toBe(404);
    expect(missing.body.errors[0].code).toBe('not_found');
    expect((await t.get('/v2/certificates/garbage', { token })).status).toBe(404);
    const badStatus = await t.get('/v2/certificates/?filter[status]=sometimes', { token });
    expect(badStatus.status).toBe(422);
    expect(badStatus.body.errors[0].source).toEqual({ parameter: 'filter[status]' });
    expect((await t.get('/v2/enrollments/?page[size]=0', { token })).status).toBe(422);
    expect((await t.get('/v2/courses/?page[cursor]=nope', { token })).status).toBe(400);
    const badQuery = await t.get('/v2/groups/?filter[name]=a&filter[name]=b', { token });
    expect(badQuery.status).toBe(422);
    // each of these went to the pipeline (the fast read gave up), which refused
    expect(guard).toHaveBeenCalledTimes(6);

    const other = await t.newOrg();
    const foreign = await t.get(paths[2], { token: await t.tokenFor(other, SCOPES) });
    expect(foreign.status).toBe(404);

    guard.mockClear();
    const narrow = await t.tokenFor(org, ['courses:read']);
    expect((await t.get('/v2/courses/', { token: narrow })).status).toBe(200);
    const forbidden = await t.get(paths[0], { token: narrow });
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.errors[0].detail).toBe('This operation needs one of the scopes: student-groups:read.');
    expect((await t.get(paths[1])).status).toBe(401);
    expect(guard).toHaveBeenCalledTimes(3);
  });
});
