import { decodeId } from '../../src/core/ids/ids';
import { TestApp } from '../support/app';
import { cmi5Package, tincanPackage, webPackageCourse, contentRunsWorld, ContentRunsWorld } from './support';

jest.setTimeout(120_000);

/**
 * The LMS side of cmi5 and TinCan launches through HTTP (CONVENTIONS §18): launch parameters, the
 * one-time fetch URL, LMS.LaunchData, the LMS's launched / satisfied statements, moveOn and
 * masteryScore, and the AU's statements turned into lesson and course progress.
 */
describe('cmi5 and TinCan launches', () => {
  const world = contentRunsWorld();
  let t: TestApp;
  let zips: ContentRunsWorld['zips'];
  beforeAll(() => ({ t, zips } = world));

  const launchOf = async (launchUrl: string) => {
    const res = await fetch(launchUrl, { redirect: 'manual' });
    expect(res.status).toBe(302);
    return new URL(res.headers.get('location')!, t.baseUrl);
  };

  it('cmi5: fetch once, LaunchData, launched; completed is not enough for CompletedAndPassed; passed below masteryScore refused; satisfied completes the lesson', async () => {
    const org = await t.newOrg();
    const key = { basic: org.api_key };
    const c = await webPackageCourse(t, org, zips.host('cmi5.zip', await cmi5Package({ moveOn: 'CompletedAndPassed', masteryScore: 0.8 })));
    const launch = await t.post(`/v1/lessons/${c.lessonId}/launches`, { user: { id: c.learner.id } }, key);
    expect(launch.status).toBe(201);
    const url = await launchOf(launch.body.launch_url);
    expect(url.pathname).toMatch(/^\/play\/[^/]+\/c\/au\/index\.html$/);
    const q = url.searchParams;
    expect(q.get('endpoint')).toBe(`${t.baseUrl}/xapi/`);
    expect(q.get('registration')).toBe(launch.body.registration);
    expect(q.get('activityId')).toBe('https://example.test/cmi5/au1');
    const actor = JSON.parse(q.get('actor')!);
    expect(actor).toMatchObject({ objectType: 'Agent', account: { name: c.learner.id } });
    expect((await t.get(url.pathname)).text).toContain('fetch(q.get');

    const fetched = await fetch(q.get('fetch')!, { method: 'POST' });
    expect(fetched.status).toBe(200);
    const token = ((await fetched.json()) as Record<string, string>)['auth-token'];
    const again = await fetch(q.get('fetch')!, { method: 'POST' });
    expect(again.status).toBe(403);
    expect(await again.json()).toMatchObject({ 'error-code': '1' });
    const x = { headers: { Authorization: `Basic ${token}`, 'X-Experience-API-Version': '1.0.3' } };

    const state = await t.get(
      `/xapi/activities/state?${new URLSearchParams({ activityId: q.get('activityId')!, agent: JSON.stringify(actor), registration: q.get('registration')!, stateId: 'LMS.LaunchData' })}`,
      x,
    );
    expect(state.status).toBe(200);
    expect(state.body).toMatchObject({
      launchMode: 'Normal',
      moveOn: 'CompletedAndPassed',
      masteryScore: 0.8,
      contextTemplate: { extensions: { 'https://w3id.org/xapi/cmi5/context/extensions/sessionid': expect.any(String) } },
    });
    const launched = await t.get(`/xapi/statements?verb=${encodeURIComponent('http://adlnet.gov/expapi/verbs/launched')}&registration=${q.get('registration')}`, x);
    expect(launched.body.statements).toHaveLength(1);

    const st = (verb: string, result?: Record<string, unknown>) => ({
      actor,
      verb: { id: `http://adlnet.gov/expapi/verbs/${verb}` },
      object: { id: q.get('activityId'), objectType: 'Activity' },
      context: {
        registration: q.get('registration'),
        contextActivities: { category: [{ id: 'https://w3id.org/xapi/cmi5/context/categories/cmi5' }] },
        extensions: state.body.contextTemplate.extensions,
      },
      ...(result ? { result } : {}),
    });
    const lessonUuid = decodeId('lesson', c.lessonId);
    const lp = async () => (await t.ds.query(`SELECT completed_at, success_status, score FROM lesson_progress WHERE lesson_id = $1`, [lessonUuid]))[0];
    expect((await t.post('/xapi/statements', st('completed', { completion: true }), x)).status).toBe(200);
    expect((await lp()).completed_at).toBeNull();
    expect((await t.post('/xapi/statements', st('passed', { success: true, score: { scaled: 0.7 } }), x)).status).toBe(400);
    expect((await lp()).completed_at).toBeNull();
    expect((await t.post('/xapi/statements', st('passed', { success: true, score: { scaled: 0.9 } }), x)).status).toBe(200);
    expect(await lp()).toMatchObject({ completed_at: expect.any(Date), success_status: 'PASSED', score: 90 });
    const satisfied = await t.get(`/xapi/statements?verb=${encodeURIComponent('https://w3id.org/xapi/adl/verbs/satisfied')}`, x);
    expect(satisfied.body.statements).toEqual([expect.objectContaining({ object: expect.objectContaining({ id: 'https://example.test/cmi5/course' }) })]);
    const certs = await t.get(`/v2/certificates/?filter[student.id]=${c.learner.id}`, { token: await t.tokenFor(org) });
    expect(certs.body.data).toHaveLength(1);

    // the launch's key is no key of another organization
    const other = await t.newOrg();
    const otherKey = await t.post('/v1/lrs-keys', {}, { basic: other.api_key });
    const ox = { headers: { Authorization: `Basic ${Buffer.from(`${otherKey.body.key}:${otherKey.body.secret}`).toString('base64')}`, 'X-Experience-API-Version': '1.0.3' } };
    expect((await t.get(`/xapi/statements?registration=${q.get('registration')}`, ox)).body.statements).toEqual([]);
  });

  it('cmi5 moveOn NotApplicable is satisfied at launch; TinCan gets endpoint, auth, actor and registration, and its completed statement completes the lesson', async () => {
    const org = await t.newOrg();
    const key = { basic: org.api_key };
    const c = await webPackageCourse(t, org, zips.host('cmi5-na.zip', await cmi5Package({ moveOn: 'NotApplicable' })));
    const launch = await t.post(`/v1/lessons/${c.lessonId}/launches`, { user: { id: c.learner.id } }, key);
    await launchOf(launch.body.launch_url);
    const [lp] = await t.ds.query(`SELECT completed_at FROM lesson_progress WHERE lesson_id = $1`, [decodeId('lesson', c.lessonId)]);
    expect(lp.completed_at).toBeInstanceOf(Date);

    const org2 = await t.newOrg();
    const tc = await webPackageCourse(t, org2, zips.host('tincan.zip', await tincanPackage()));
    const l2 = await t.post(`/v1/lessons/${tc.lessonId}/launches`, { user: { id: tc.learner.id } }, { basic: org2.api_key });
    const url = await launchOf(l2.body.launch_url);
    expect(url.pathname).toMatch(/\/c\/story\.html$/);
    const q = url.searchParams;
    expect(q.get('auth')).toMatch(/^Basic /);
    expect(q.get('activity_id')).toBe('https://example.test/tincan/course');
    const actor = JSON.parse(q.get('actor')!);
    const x = { headers: { Authorization: q.get('auth')!, 'X-Experience-API-Version': '1.0.3' } };
    const done = await t.post(
      '/xapi/statements',
      { actor, verb: { id: 'http://adlnet.gov/expapi/verbs/completed' }, object: { id: q.get('activity_id') }, context: { registration: q.get('registration') }, result: { score: { scaled: 0.75 } } },
      x,
    );
    expect(done.status).toBe(200);
    const [lp2] = await t.ds.query(`SELECT completed_at, score FROM lesson_progress WHERE lesson_id = $1`, [decodeId('lesson', tc.lessonId)]);
    expect(lp2).toMatchObject({ completed_at: expect.any(Date), score: 75 });
  });

  it("cmi5: an AU that joins the endpoint and the resource with another '/' (as ADL's cmi5.js does) reaches the LRS; the lesson completes", async () => {
    const org = await t.newOrg();
    const key = { basic: org.api_key };
    const c = await webPackageCourse(t, org, zips.host('cmi5-slash.zip', await cmi5Package({ moveOn: 'CompletedOrPassed' })));
    const launch = await t.post(`/v1/lessons/${c.lessonId}/launches`, { user: { id: c.learner.id } }, key);
    const q = (await launchOf(launch.body.launch_url)).searchParams;
    const endpoint = q.get('endpoint')!;
    expect(endpoint.endsWith('/')).toBe(true);
    const token = ((await (await fetch(q.get('fetch')!, { method: 'POST' })).json()) as Record<string, string>)['auth-token'];
    const headers = { Authorization: `Basic ${token}`, 'X-Experience-API-Version': '1.0.3', 'Content-Type': 'application/json' };
    const actor = JSON.parse(q.get('actor')!);
    const stateUrl = (id: string) =>
      `${endpoint}/activities/state?${new URLSearchParams({ stateId: id, activityId: q.get('activityId')!, agent: JSON.stringify(actor), registration: q.get('registration')! })}`;
    expect(stateUrl('x')).toContain('/xapi//activities/state?');

    const launchRes = await fetch(stateUrl('LMS.LaunchData'), { headers });
    expect(launchRes.status).toBe(200);
    const launchData = (await launchRes.json()) as { contextTemplate: { extensions: Record<string, unknown> } };
    expect(launchData).toMatchObject({ launchMode: 'Normal', moveOn: 'CompletedOrPassed' });
    expect((await fetch(stateUrl('bookmark'), { method: 'PUT', headers, body: JSON.stringify({ page: 3 }) })).status).toBe(204);
    expect(await (await fetch(stateUrl('bookmark'), { headers })).json()).toEqual({ page: 3 });

    const completed = {
      actor,
      verb: { id: 'http://adlnet.gov/expapi/verbs/completed' },
      object: { id: q.get('activityId'), objectType: 'Activity' },
      result: { completion: true, duration: 'PT1M' },
      context: {
        registration: q.get('registration'),
        contextActivities: { category: [{ id: 'https://w3id.org/xapi/cmi5/context/categories/cmi5' }] },
        extensions: launchData.contextTemplate.extensions,
      },
    };
    expect((await fetch(`${endpoint}/statements`, { method: 'POST', headers, body: JSON.stringify(completed) })).status).toBe(200);
    const [lp] = await t.ds.query(`SELECT completed_at FROM lesson_progress WHERE lesson_id = $1`, [decodeId('lesson', c.lessonId)]);
    expect(lp.completed_at).toBeInstanceOf(Date);
    // only the xAPI prefix is tolerant: elsewhere a doubled slash is another path
    expect((await fetch(`${t.baseUrl}/v1//courses`, { headers: { Authorization: `Basic ${Buffer.from(`${org.api_key}:`).toString('base64')}` } })).status).toBe(404);
  });

  it('cmi5: a new session of the registration abandons the earlier one that never terminated (once), not one that terminated', async () => {
    const org = await t.newOrg();
    const key = { basic: org.api_key };
    const c = await webPackageCourse(t, org, zips.host('cmi5-ab.zip', await cmi5Package({ moveOn: 'Completed' })));
    const orgKey = await t.post('/v1/lrs-keys', {}, key);
    const ox = { headers: { Authorization: `Basic ${Buffer.from(`${orgKey.body.key}:${orgKey.body.secret}`).toString('base64')}`, 'X-Experience-API-Version': '1.0.3' } };
    const SID = 'https://w3id.org/xapi/cmi5/context/extensions/sessionid';
    const open = async () => {
      const launch = await t.post(`/v1/lessons/${c.lessonId}/launches`, { user: { id: c.learner.id } }, key);
      const url = await launchOf(launch.body.launch_url);
      const launched = await t.get(`/xapi/statements?verb=${encodeURIComponent('http://adlnet.gov/expapi/verbs/launched')}&registration=${url.searchParams.get('registration')}`, ox);
      return { url, session: launched.body.statements[0].context.extensions[SID] as string };
    };
    const abandoned = async (registration: string) =>
      (await t.get(`/xapi/statements?verb=${encodeURIComponent('https://w3id.org/xapi/adl/verbs/abandoned')}&registration=${registration}`, ox)).body.statements as any[];

    const first = await open();
    const registration = first.url.searchParams.get('registration')!;
    expect(await abandoned(registration)).toEqual([]);
    const second = await open();
    expect(second.url.searchParams.get('registration')).toBe(registration);
    expect(second.session).not.toBe(first.session);
    const once = await abandoned(registration);
    expect(once).toHaveLength(1);
    expect(once[0]).toMatchObject({ object: { id: 'https://example.test/cmi5/au1' }, context: { registration, extensions: { [SID]: first.session } } });

    // the second session terminates (the AU, with its own key): the third launch abandons nothing more
    const token = ((await (await fetch(second.url.searchParams.get('fetch')!, { method: 'POST' })).json()) as Record<string, string>)['auth-token'];
    const terminated = await t.post(
      '/xapi/statements',
      {
        actor: JSON.parse(second.url.searchParams.get('actor')!),
        verb: { id: 'http://adlnet.gov/expapi/verbs/terminated' },
        object: { id: second.url.searchParams.get('activityId'), objectType: 'Activity' },
        context: { registration, contextActivities: { category: [{ id: 'https://w3id.org/xapi/cmi5/context/categories/cmi5' }] }, extensions: { [SID]: second.session } },
      },
      { headers: { Authorization: `Basic ${token}`, 'X-Experience-API-Version': '1.0.3' } },
    );
    expect(terminated.status).toBe(200);
    await open();
    expect(await abandoned(registration)).toHaveLength(1);
  });
});
