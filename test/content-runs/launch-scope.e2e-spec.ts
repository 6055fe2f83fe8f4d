import { TestApp } from '../support/app';
import { cmi5Package, openLaunch, rt, scormPackage, webPackageCourse, contentRunsWorld, ContentRunsWorld } from './support';

jest.setTimeout(120_000);

/**
 * A launch reaches its own package and its own attempt only (docs/decisions/content-runs.md
 * "Launch keys"): the session path serves no other package's files, the runtime writes no other
 * attempt, and a launch's LRS key writes and reads only its own learner in its own registration.
 */
describe('a launch reaches only its own package and attempt', () => {
  const world = contentRunsWorld();
  let t: TestApp;
  let zips: ContentRunsWorld['zips'];
  beforeAll(() => ({ t, zips } = world));

  it("package A's launch cannot read package B's files, write attempt C, nor read or write C's statements and state", async () => {
    const org = await t.newOrg();
    const key = { basic: org.api_key };
    const a = await webPackageCourse(t, org, zips.host('scope-a.zip', await scormPackage('2004')));
    const b = await webPackageCourse(t, org, zips.host('scope-b.zip', await cmi5Package({ moveOn: 'Completed' })));

    // files: each session serves its own package only
    const sA = await openLaunch(t, (await t.post(`/v1/lessons/${a.lessonId}/launches`, { user: { id: a.learner.id } }, key)).body.launch_url);
    const bLaunch = await t.post(`/v1/lessons/${b.lessonId}/launches`, { user: { id: b.learner.id } }, key);
    const bUrl = new URL(await openLaunch(t, bLaunch.body.launch_url), t.baseUrl);
    const sB = bUrl.pathname.replace(/\/c\/.*$/, '/');
    expect((await t.get(`${sA}c/resources/sco.html`)).status).toBe(200);
    expect((await t.get(`${sB}c/au/index.html`)).status).toBe(200);
    expect((await t.get(`${sA}c/au/index.html`)).status).toBe(404);
    expect((await t.get(`${sB}c/resources/sco.html`)).status).toBe(404);
    expect((await t.get(`${sA}c/..%2F..%2F${sB.split('/')[2]}%2Fc%2Fau%2Findex.html`)).status).toBe(404);

    // the runtime: attempt C (another learner of package A) is out of reach of A's session, whatever the body names
    const other = await a.journey.learner();
    await a.journey.enroll(other.id, a.publishedCourseId);
    const sC = await openLaunch(t, (await t.post(`/v1/lessons/${a.lessonId}/launches`, { user: { id: other.id } }, key)).body.launch_url);
    const [attemptC] = await t.ds.query(`SELECT a.id, a.registration FROM content_attempts a JOIN content_launches l ON l.attempt_id = a.id WHERE l.id = $1`, [sC.split('/')[2].split('.')[0]]);
    await rt(t, sA, 'initialize');
    expect((await rt(t, sA, 'set', { element: 'cmi.location', value: 'page-a', attempt_id: attemptC.id, registration: attemptC.registration })).error).toBe(0);
    await rt(t, sA, 'commit');
    const [cmiC] = await t.ds.query(`SELECT cmi FROM content_attempts WHERE id = $1`, [attemptC.id]);
    expect(cmiC.cmi['cmi.location']).toBeUndefined();
    await rt(t, sC, 'initialize');
    expect((await rt(t, sC, 'get', { element: 'cmi.location' })).value).toBe('');
    // a cmi5 session has no SCORM runtime
    expect((await rt(t, sB, 'initialize')).error).toBe(101);

    // the LRS: B's key (from its fetch URL) against another learner's cmi5 attempt of the same package
    const fetched = await fetch(bUrl.searchParams.get('fetch')!, { method: 'POST' });
    const x = { headers: { Authorization: `Basic ${((await fetched.json()) as Record<string, string>)['auth-token']}`, 'X-Experience-API-Version': '1.0.3' } };
    const third = await b.journey.learner();
    await b.journey.enroll(third.id, b.publishedCourseId);
    const cUrl = new URL(await openLaunch(t, (await t.post(`/v1/lessons/${b.lessonId}/launches`, { user: { id: third.id } }, key)).body.launch_url), t.baseUrl);
    const own = { actor: JSON.parse(bUrl.searchParams.get('actor')!), registration: bUrl.searchParams.get('registration')! };
    const theirs = { actor: JSON.parse(cUrl.searchParams.get('actor')!), registration: cUrl.searchParams.get('registration')! };
    const au = bUrl.searchParams.get('activityId')!;
    const st = (who: { actor: unknown }, registration: string | undefined) => ({
      actor: who.actor,
      verb: { id: 'http://adlnet.gov/expapi/verbs/experienced' },
      object: { id: au },
      ...(registration ? { context: { registration } } : {}),
    });
    expect((await t.post('/xapi/statements', st(own, theirs.registration), x)).status).toBe(403);
    expect((await t.post('/xapi/statements', st(theirs, theirs.registration), x)).status).toBe(403);
    expect((await t.post('/xapi/statements', st(theirs, own.registration), x)).status).toBe(403);
    expect((await t.post('/xapi/statements', st(own, undefined), x)).status).toBe(403); // cmi5: the registration is required
    expect((await t.post('/xapi/statements', [st(own, own.registration), st(theirs, theirs.registration)], x)).status).toBe(403);
    expect((await t.post('/xapi/statements', st(own, own.registration), x)).status).toBe(200);

    expect((await t.get(`/xapi/statements?registration=${theirs.registration}`, x)).status).toBe(403);
    const mine = (await t.get('/xapi/statements', x)).body.statements as { context: { registration: string } }[];
    expect(mine.length).toBeGreaterThan(0);
    expect(mine.every((s) => s.context.registration === own.registration)).toBe(true);
    const orgKey = await t.post('/v1/lrs-keys', {}, key);
    const ox = { headers: { Authorization: `Basic ${Buffer.from(`${orgKey.body.key}:${orgKey.body.secret}`).toString('base64')}`, 'X-Experience-API-Version': '1.0.3' } };
    const theirLaunched = (await t.get(`/xapi/statements?registration=${theirs.registration}`, ox)).body.statements;
    expect(theirLaunched.length).toBe(1);
    expect((await t.get(`/xapi/statements?statementId=${theirLaunched[0].id}`, x)).status).toBe(404);
    expect((await t.get(`/xapi/statements?statementId=${theirLaunched[0].id}`, ox)).status).toBe(200);

    const state = (who: { actor: unknown; registration: string }) =>
      `/xapi/activities/state?${new URLSearchParams({ activityId: au, agent: JSON.stringify(who.actor), registration: who.registration, stateId: 'LMS.LaunchData' })}`;
    expect((await t.get(state(own), x)).status).toBe(200);
    expect((await t.get(state(theirs), x)).status).toBe(403);
    expect((await t.get(state({ actor: own.actor, registration: theirs.registration }), x)).status).toBe(403);
    expect((await t.request('PUT', state(theirs).replace('LMS.LaunchData', 'bookmark'), { ...x, body: { page: 1 } })).status).toBe(403);
    expect((await t.request('PUT', state(own).replace('LMS.LaunchData', 'bookmark'), { ...x, body: { page: 1 } })).status).toBe(204);
    const profile = `/xapi/activities/profile?${new URLSearchParams({ activityId: au, profileId: 'p' })}`;
    expect((await t.request('PUT', profile, { headers: { ...x.headers, 'If-None-Match': '*' }, body: { a: 1 } })).status).toBe(403);
  });
});
