import { INestApplicationContext } from '@nestjs/common';
import { decodeId } from '../../src/core/ids/ids';
import { startTestApp, TestApp } from '../support/app';
import { dropRedisPrefix, Receiver, startReceiver } from '../support/webhook-receiver';
import { openLaunch, rt, scormPackage, serveZips, startWorker, webPackageCourse } from './support';

jest.setTimeout(120_000);

/**
 * Launches and the SCORM runtime through HTTP alone (CONVENTIONS §18): the launch URL's rules, the
 * player's files under the session only, the runtime endpoints' data model, limits and error codes
 * for SCORM 2004 and 1.2, suspend and resume, and completion flowing into lesson and course progress,
 * a certificate and the LESSON_COMPLETION / COURSE_COMPLETION webhooks delivered by a real worker.
 */
describe('launches and the SCORM runtime (HTTP)', () => {
  let t: TestApp;
  let worker: INestApplicationContext;
  let zips: Awaited<ReturnType<typeof serveZips>>;
  let r: Receiver;

  beforeAll(async () => {
    t = await startTestApp({ ALLOW_PRIVATE_URLS: true });
    zips = await serveZips();
    r = await startReceiver();
    worker = await startWorker(t);
  });
  afterAll(async () => {
    await worker?.close();
    await zips?.close();
    await r?.close();
    await t?.close();
    await dropRedisPrefix(t.config.REDIS_URL, t.config.REDIS_PREFIX);
  });

  it('SCORM 2004: launch rules, files, data model and errors, suspend and resume, completion with every effect', async () => {
    const org = await t.newOrg();
    const key = { basic: org.api_key };
    const hook = await t.post('/v1/webhooks', { target_url: r.url }, key);
    expect(hook.status).toBe(201);
    const c = await webPackageCourse(t, org, zips.host('s2004.zip', await scormPackage('2004')));
    const [pkgRow] = await t.ds.query(`SELECT launch_path, launch_parameters, standard_version FROM web_packages WHERE id = $1`, [decodeId('webPackage', c.pkg.id)]);
    expect(pkgRow).toEqual({ launch_path: 'resources/sco.html', launch_parameters: 'lang=en', standard_version: '2004 4th Edition' });

    // bad launches change nothing
    expect((await t.post(`/v1/lessons/${c.lessonId}/launches`, {}, key)).status).toBe(400);
    const stranger = await c.journey.learner();
    const notEnrolled = await t.post(`/v1/lessons/${c.lessonId}/launches`, { user: { id: stranger.id } }, key);
    expect(notEnrolled.status).toBe(400);
    expect(notEnrolled.body).toHaveProperty('user');
    expect((await t.post(`/v1/lessons/${c.lessonId}/launches`, { user: { id: 'nope' } }, key)).status).toBe(400);
    expect((await t.post(`/v1/lessons/lesnope/launches`, { user: { id: c.learner.id } }, key)).status).toBe(404);
    expect((await t.post(`/v1/lessons/${c.lessonId}/launches`, { user: { id: c.learner.id } })).status).toBe(401);
    expect(await t.ds.query(`SELECT count(*)::int AS n FROM content_launches`)).toEqual([{ n: 0 }]);

    // another organization sees nothing of this lesson
    const other = await t.newOrg();
    expect((await t.post(`/v1/lessons/${c.lessonId}/launches`, { user: { id: c.learner.id } }, { basic: other.api_key })).status).toBe(404);

    const launch = await t.post(`/v1/lessons/${c.lessonId}/launches`, { user: { id: c.learner.id } }, key);
    expect(launch.status).toBe(201);
    expect(launch.body).toEqual({
      launch_url: expect.stringMatching(/\/launch\/[A-Za-z0-9_-]{40,}$/),
      expires_at: expect.any(String),
      registration: expect.stringMatching(/^[0-9a-f-]{36}$/),
      item: 'I1',
    });
    const ttl = Date.parse(launch.body.expires_at) - Date.now();
    expect(ttl).toBeGreaterThan(250_000);
    expect(ttl).toBeLessThanOrEqual(300_000);

    const session = await openLaunch(t, launch.body.launch_url);
    expect(session).toMatch(/^\/play\/[0-9a-f-]{36}\.\d+\.[A-Za-z0-9_-]{43}\/$/);
    // single use
    expect((await fetch(launch.body.launch_url, { redirect: 'manual' })).status).toBe(403);

    const page = await t.get(session);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.text).toContain('src="adapter.js"');
    expect(page.text).toContain('src="c/resources/sco.html?lang=en"');
    expect(page.headers.get('x-frame-options')).toBeNull();
    const adapter = await t.get(`${session}adapter.js`);
    expect(adapter.text).toContain('window.API_1484_11');
    const file = await t.get(`${session}c/resources/sco.html`);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-security-policy')).toMatch(/^sandbox allow-scripts allow-same-origin/);
    expect(file.headers.get('content-security-policy')).not.toMatch(/allow-top-navigation/);
    expect(file.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    expect(file.headers.get('x-content-type-options')).toBe('nosniff');
    expect((await t.get(`${session}c/resources/js/sco.js`)).status).toBe(200);
    expect((await t.get(`${session}c/imsmanifest.xml`)).status).toBe(200);
    expect((await t.get(`${session}c/resources/missing.html`)).status).toBe(404);
    expect((await t.get(`${session}c/resources/..%2f..%2fimsmanifest.xml`)).status).toBe(404);
    const tampered = session.replace(/.\/$/, (m) => (m[0] === 'A' ? 'B' : 'A') + '/');
    expect((await t.get(`${tampered}c/resources/sco.html`)).status).toBe(403);
    expect((await t.post(`${tampered}runtime/initialize`, {})).status).toBe(403);
    const expired = session.replace(/\.(\d+)\./, (_m, e) => `.${Number(e) - 100000}.`);
    expect((await t.get(`${expired}c/resources/sco.html`)).status).toBe(403);

    // the runtime: state errors, data model, limits
    expect(await rt(t, session, 'get', { element: 'cmi.location' })).toMatchObject({ value: '', error: 122 });
    expect(await rt(t, session, 'commit')).toMatchObject({ value: 'false', error: 142 });
    expect(await rt(t, session, 'initialize', { argument: 'x' })).toMatchObject({ value: 'false', error: 201 });
    expect(await rt(t, session, 'initialize')).toEqual({ value: 'true', error: 0 });
    expect(await rt(t, session, 'initialize')).toMatchObject({ value: 'false', error: 103 });
    expect(await rt(t, session, 'get', { element: 'cmi.entry' })).toEqual({ value: 'ab-initio', error: 0 });
    expect(await rt(t, session, 'get', { element: 'cmi.learner_id' })).toEqual({ value: c.learner.id, error: 0 });
    expect(await rt(t, session, 'get', { element: 'cmi.learner_name' })).toEqual({ value: 'Ada Lovelace', error: 0 });
    expect(await rt(t, session, 'get', { element: 'cmi.completion_status' })).toEqual({ value: 'unknown', error: 0 });
    expect(await rt(t, session, 'get', { element: 'cmi.location' })).toMatchObject({ value: '', error: 403 });
    expect(await rt(t, session, 'get', { element: 'cmi.nothing' })).toMatchObject({ value: '', error: 401 });
    expect(await rt(t, session, 'get', { element: 'cmi.exit' })).toMatchObject({ error: 405 });
    expect(await rt(t, session, 'get', { element: 'cmi._version' })).toEqual({ value: '1.0', error: 0 });
    expect(await rt(t, session, 'set', { element: 'cmi._version', value: '2' })).toMatchObject({ value: 'false', error: 404 });
    expect(await rt(t, session, 'set', { element: 'cmi.completion_status', value: 'done' })).toMatchObject({ error: 406 });
    expect(await rt(t, session, 'set', { element: 'cmi.score.scaled', value: '1.5' })).toMatchObject({ error: 407 });
    expect(await rt(t, session, 'set', { element: 'cmi.session_time', value: '00:01:00' })).toMatchObject({ error: 406 });
    expect(await rt(t, session, 'set', { element: 'cmi.suspend_data', value: 'x'.repeat(64001) })).toMatchObject({ error: 406 });
    expect(await rt(t, session, 'set', { element: 'cmi.interactions.1.id', value: 'q1' })).toMatchObject({ error: 351 });
    expect(await rt(t, session, 'set', { element: 'cmi.interactions.0.type', value: 'choice' })).toMatchObject({ error: 408 });
    expect(await rt(t, session, 'set', { element: 'cmi.interactions.0.id', value: 'urn:q:1' })).toEqual({ value: 'true', error: 0 });
    expect(await rt(t, session, 'set', { element: 'cmi.interactions.0.learner_response', value: 'a' })).toMatchObject({ error: 408 });
    expect(await rt(t, session, 'set', { element: 'cmi.interactions.0.type', value: 'choice' })).toEqual({ value: 'true', error: 0 });
    expect(await rt(t, session, 'set', { element: 'cmi.interactions.0.result', value: 'correct' })).toEqual({ value: 'true', error: 0 });
    expect(await rt(t, session, 'get', { element: 'cmi.interactions._count' })).toEqual({ value: '1', error: 0 });
    expect(await rt(t, session, 'set', { element: 'cmi.location', value: 'page-3' })).toEqual({ value: 'true', error: 0 });
    expect(await rt(t, session, 'set', { element: 'cmi.suspend_data', value: 'x'.repeat(64000) })).toEqual({ value: 'true', error: 0 });
    expect(await rt(t, session, 'set', { element: 'cmi.completion_status', value: 'incomplete' })).toEqual({ value: 'true', error: 0 });
    expect(await rt(t, session, 'set', { element: 'cmi.exit', value: 'suspend' })).toEqual({ value: 'true', error: 0 });
    expect(await rt(t, session, 'set', { element: 'cmi.session_time', value: 'PT1M' })).toEqual({ value: 'true', error: 0 });
    expect(await rt(t, session, 'commit')).toEqual({ value: 'true', error: 0 });
    expect(await rt(t, session, 'terminate')).toEqual({ value: 'true', error: 0 });
    expect(await rt(t, session, 'terminate')).toMatchObject({ value: 'false', error: 113 });
    expect(await rt(t, session, 'get', { element: 'cmi.location' })).toMatchObject({ error: 123 });
    expect(await rt(t, session, 'set', { element: 'cmi.location', value: 'x' })).toMatchObject({ error: 133 });
    expect((await t.post(`${session}runtime/explode`, {})).status).toBe(404);
    expect((await t.request('POST', `${session}runtime/get`, { raw: { contentType: 'application/json', data: '[1' } })).status).toBe(400);

    let lessons = await c.journey.lessons(c.learner.id, c.publishedCourseId);
    expect(lessons.find((l: any) => l.lesson.id === c.lessonId) ?? lessons[0]).toBeDefined();
    const [lp0] = await t.ds.query(`SELECT completed_at, view_count FROM lesson_progress WHERE lesson_id = $1`, [decodeId('lesson', c.lessonId)]);
    expect(lp0).toEqual({ completed_at: null, view_count: 1 });

    // a second launch resumes the suspended attempt
    const again = await t.post(`/v1/lessons/${c.lessonId}/launches`, { user: { id: c.learner.id } }, key);
    expect(again.body.registration).toBe(launch.body.registration);
    const s2 = await openLaunch(t, again.body.launch_url);
    expect(await rt(t, s2, 'initialize')).toEqual({ value: 'true', error: 0 });
    expect(await rt(t, s2, 'get', { element: 'cmi.entry' })).toEqual({ value: 'resume', error: 0 });
    expect(await rt(t, s2, 'get', { element: 'cmi.location' })).toEqual({ value: 'page-3', error: 0 });
    expect((await rt(t, s2, 'get', { element: 'cmi.suspend_data' })).value).toHaveLength(64000);
    expect(await rt(t, s2, 'get', { element: 'cmi.total_time' })).toEqual({ value: 'PT1M', error: 0 });
    expect(await rt(t, s2, 'get', { element: 'cmi.interactions.0.id' })).toEqual({ value: 'urn:q:1', error: 0 });
    // the first session is over for good
    expect(await rt(t, session, 'initialize')).toMatchObject({ value: 'false', error: 104 });

    expect(await rt(t, s2, 'set', { element: 'cmi.completion_status', value: 'completed' })).toEqual({ value: 'true', error: 0 });
    expect(await rt(t, s2, 'set', { element: 'cmi.success_status', value: 'passed' })).toEqual({ value: 'true', error: 0 });
    expect(await rt(t, s2, 'set', { element: 'cmi.score.scaled', value: '0.9' })).toEqual({ value: 'true', error: 0 });
    expect(await rt(t, s2, 'commit')).toEqual({ value: 'true', error: 0 });
    expect(await rt(t, s2, 'commit')).toEqual({ value: 'true', error: 0 }); // a repeated commit emits nothing more
    const [lp] = await t.ds.query(`SELECT completed_at, success_status, score, max_score FROM lesson_progress WHERE lesson_id = $1`, [decodeId('lesson', c.lessonId)]);
    expect(lp).toMatchObject({ completed_at: expect.any(Date), success_status: 'PASSED', score: 90, max_score: 100 });
    expect(await rt(t, s2, 'terminate')).toEqual({ value: 'true', error: 0 });

    const token = await t.tokenFor(org);
    const certs = await t.get(`/v2/certificates/?filter[student.id]=${c.learner.id}`, { token });
    expect(certs.body.data).toHaveLength(1);
    const course = await t.get(`/v1/users/${c.learner.id}/published-courses/${c.publishedCourseId}`, key);
    expect(course.status).toBe(200);

    // DOMAIN_ENROLLMENT, COURSE_ENROLLMENT, LESSON_COMPLETION, COURSE_COMPLETION
    const got = await r.waitFor(4, 30_000);
    await new Promise((res) => setTimeout(res, 500));
    const bodies = r.received.map((g) => JSON.parse(g.body));
    const types = bodies.map((b) => b.event_type);
    expect(types.filter((x) => x === 'LESSON_COMPLETION')).toHaveLength(1);
    expect(types.filter((x) => x === 'COURSE_COMPLETION')).toHaveLength(1);
    expect(got.length).toBeGreaterThanOrEqual(4);
    expect(bodies.find((b) => b.event_type === 'LESSON_COMPLETION')).toMatchObject({ lesson: { id: c.lessonId }, success_status: 'PASSED', score: 90, user: { id: c.learner.id } });

    // a third launch after the attempt closed starts a new attempt
    const third = await t.post(`/v1/lessons/${c.lessonId}/launches`, { user: { id: c.learner.id } }, key);
    expect(third.body.registration).not.toBe(launch.body.registration);
    const s3 = await openLaunch(t, third.body.launch_url);
    await rt(t, s3, 'initialize');
    expect(await rt(t, s3, 'get', { element: 'cmi.entry' })).toEqual({ value: 'ab-initio', error: 0 });
    expect(await rt(t, s3, 'get', { element: 'cmi.location' })).toMatchObject({ error: 403 });

    lessons = await c.journey.lessons(c.learner.id, c.publishedCourseId);
    expect(lessons.length).toBeGreaterThan(0);
  });

  it('SCORM 1.2: its data model, limits and error codes; passed with a score completes the lesson; /v2 launches', async () => {
    const org = await t.newOrg();
    const c = await webPackageCourse(t, org, zips.host('s12.zip', await scormPackage('1.2')));
    const token = await t.tokenFor(org);

    const v2bad = await t.post('/v2/launches/', { data: { type: 'launches', attributes: { lesson_id: c.lessonId } } }, { token });
    expect(v2bad.status).toBe(422);
    const v2 = await t.post('/v2/launches/', { data: { type: 'launches', attributes: { lesson_id: c.lessonId, student_id: c.learner.id } } }, { token });
    expect(v2.status).toBe(201);
    expect(v2.body.data).toMatchObject({
      type: 'launches',
      id: expect.stringMatching(/^lnch[0-9a-z]{25}$/),
      attributes: { launch_url: expect.stringContaining('/launch/'), registration: expect.any(String) },
    });

    const s = await openLaunch(t, v2.body.data.attributes.launch_url);
    expect((await t.get(`${s}adapter.js`)).text).toContain('window.API = {');
    expect(await rt(t, s, 'get', { element: 'cmi.core.lesson_status' })).toMatchObject({ error: 301 });
    expect(await rt(t, s, 'initialize')).toEqual({ value: 'true', error: 0 });
    expect(await rt(t, s, 'initialize')).toMatchObject({ value: 'false', error: 101 });
    expect(await rt(t, s, 'get', { element: 'cmi.core.lesson_status' })).toEqual({ value: 'not attempted', error: 0 });
    expect(await rt(t, s, 'get', { element: 'cmi.core.entry' })).toEqual({ value: 'ab-initio', error: 0 });
    expect(await rt(t, s, 'get', { element: 'cmi.core.student_name' })).toEqual({ value: 'Lovelace, Ada', error: 0 });
    expect(await rt(t, s, 'get', { element: 'cmi.core._children' })).toMatchObject({ value: expect.stringContaining('lesson_status'), error: 0 });
    expect(await rt(t, s, 'get', { element: 'cmi.core.lesson_location' })).toEqual({ value: '', error: 0 });
    expect(await rt(t, s, 'get', { element: 'cmi.core.exit' })).toMatchObject({ error: 404 });
    expect(await rt(t, s, 'get', { element: 'cmi.core.nothing' })).toMatchObject({ error: 201 });
    expect(await rt(t, s, 'get', { element: 'cmi.core.student_id._children' })).toMatchObject({ error: 202 });
    expect(await rt(t, s, 'get', { element: 'cmi.core.lesson_status._count' })).toMatchObject({ error: 203 });
    expect(await rt(t, s, 'set', { element: 'cmi.core._children', value: 'x' })).toMatchObject({ error: 402 });
    expect(await rt(t, s, 'set', { element: 'cmi.core.student_id', value: 'x' })).toMatchObject({ error: 403 });
    expect(await rt(t, s, 'set', { element: 'cmi.core.lesson_status', value: 'not attempted' })).toMatchObject({ error: 405 });
    expect(await rt(t, s, 'set', { element: 'cmi.core.score.raw', value: '101' })).toMatchObject({ error: 405 });
    expect(await rt(t, s, 'set', { element: 'cmi.core.session_time', value: 'PT1M' })).toMatchObject({ error: 405 });
    expect(await rt(t, s, 'set', { element: 'cmi.suspend_data', value: 'x'.repeat(4097) })).toMatchObject({ error: 405 });
    expect(await rt(t, s, 'set', { element: 'cmi.suspend_data', value: 'x'.repeat(4096) })).toEqual({ value: 'true', error: 0 });
    expect(await rt(t, s, 'set', { element: 'cmi.objectives.0.id', value: 'obj1' })).toEqual({ value: 'true', error: 0 });
    expect(await rt(t, s, 'set', { element: 'cmi.objectives.0.status', value: 'passed' })).toEqual({ value: 'true', error: 0 });
    expect(await rt(t, s, 'get', { element: 'cmi.objectives._count' })).toEqual({ value: '1', error: 0 });
    expect(await rt(t, s, 'set', { element: 'cmi.interactions.0.id', value: 'q1' })).toEqual({ value: 'true', error: 0 });
    expect(await rt(t, s, 'get', { element: 'cmi.interactions.0.id' })).toMatchObject({ error: 404 });
    expect(await rt(t, s, 'set', { element: 'cmi.core.lesson_status', value: 'passed' })).toEqual({ value: 'true', error: 0 });
    expect(await rt(t, s, 'set', { element: 'cmi.core.score.raw', value: '80' })).toEqual({ value: 'true', error: 0 });
    expect(await rt(t, s, 'set', { element: 'cmi.core.session_time', value: '0000:02:00.50' })).toEqual({ value: 'true', error: 0 });
    expect(await rt(t, s, 'terminate')).toEqual({ value: 'true', error: 0 });
    expect(await rt(t, s, 'commit')).toMatchObject({ value: 'false', error: 101 });

    const [lp] = await t.ds.query(`SELECT completed_at, success_status, score FROM lesson_progress WHERE lesson_id = $1`, [decodeId('lesson', c.lessonId)]);
    expect(lp).toMatchObject({ completed_at: expect.any(Date), success_status: 'PASSED', score: 80 });
    const [attempt] = await t.ds.query(`SELECT state, total_time_cs FROM content_attempts WHERE lesson_id = $1`, [decodeId('lesson', c.lessonId)]);
    expect(attempt).toEqual({ state: 'CLOSED', total_time_cs: '12050' });
    const certs = await t.get(`/v2/certificates/?filter[student.id]=${c.learner.id}`, { token });
    expect(certs.body.data).toHaveLength(1);
  });

  it('GET /v2/lesson-progress/: per learner and lesson, status, score, attempts, time, activity; cursor pages, filters, organizations apart', async () => {
    const org = await t.newOrg();
    const key = { basic: org.api_key };
    const c = await webPackageCourse(t, org, zips.host('lp.zip', await scormPackage('2004')));
    const second = await c.journey.learner();
    await c.journey.enroll(second.id, c.publishedCourseId);
    for (const [learner, complete] of [
      [c.learner.id, true],
      [second.id, false],
    ] as const) {
      const launch = await t.post(`/v1/lessons/${c.lessonId}/launches`, { user: { id: learner } }, key);
      const s = await openLaunch(t, launch.body.launch_url);
      await rt(t, s, 'initialize');
      await rt(t, s, 'set', { element: 'cmi.session_time', value: 'PT2M' });
      if (complete) {
        await rt(t, s, 'set', { element: 'cmi.completion_status', value: 'completed' });
        await rt(t, s, 'set', { element: 'cmi.score.scaled', value: '0.5' });
      }
      await rt(t, s, 'terminate');
    }
    const token = await t.tokenFor(org);
    const mine = await t.get(`/v2/lesson-progress/?filter[student.id]=${c.learner.id}`, { token });
    expect(mine.status).toBe(200);
    expect(mine.body.data).toEqual([
      {
        type: 'lesson-progress',
        id: expect.stringMatching(/^lpr/),
        attributes: expect.objectContaining({
          student_id: c.learner.id,
          lesson_id: c.lessonId,
          course_id: c.courseId,
          published_course_id: c.publishedCourseId,
          status: 'COMPLETED',
          score: 50,
          max_score: 100,
          attempts: 1,
          views: 1,
          time_spent_seconds: 120,
          first_activity_at: expect.any(String),
          last_activity_at: expect.any(String),
          completed_at: expect.any(String),
        }),
      },
    ]);
    const all = await t.get('/v2/lesson-progress/?page[size]=1', { token });
    expect(all.body.data).toHaveLength(1);
    expect(all.body.has_more).toBe(true);
    const next = await t.get(all.body.links.next.replace(t.baseUrl, ''), { token });
    expect(next.body.data).toHaveLength(1);
    expect(next.body.data[0].attributes.status).toBe('IN_PROGRESS');
    expect(next.body.data[0].id).not.toBe(all.body.data[0].id);
    expect(next.body.has_more).toBe(false);
    expect((await t.get(`/v2/lesson-progress/?filter[lesson.id]=${c.lessonId}&filter[course.id]=${c.courseId}`, { token })).body.data).toHaveLength(2);
    expect((await t.get('/v2/lesson-progress/?filter[updated_since]=2999-01-01T00:00:00Z', { token })).body.data).toEqual([]);
    expect((await t.get('/v2/lesson-progress/?filter[updated_since]=yesterday', { token })).status).toBe(422);
    expect((await t.get('/v2/lesson-progress/?filter[student.id]=nope', { token })).body.data).toEqual([]);
    expect((await t.get('/v2/lesson-progress/?page[cursor]=tampered', { token })).status).toBe(400);
    expect((await t.get('/v2/lesson-progress/', { token: await t.tokenFor(org, ['students:read']) })).status).toBe(403);
    const other = await t.newOrg();
    expect((await t.get('/v2/lesson-progress/', { token: await t.tokenFor(other) })).body.data).toEqual([]);
  });
});
