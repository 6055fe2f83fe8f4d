import { decodeId } from '../../src/core/ids/ids';
import { TestApp } from '../support/app';
import { openLaunch, rt, webPackageCourse, zip, contentRunsWorld, ContentRunsWorld } from './support';

jest.setTimeout(120_000);

const SID = 'https://w3id.org/xapi/cmi5/context/extensions/sessionid';
const verbUrl = (v: string) => encodeURIComponent(v.includes(':') ? v : `http://adlnet.gov/expapi/verbs/${v}`);
const SATISFIED = 'https://w3id.org/xapi/adl/verbs/satisfied';
const WAIVED = 'https://w3id.org/xapi/adl/verbs/waived';

/** A SCORM 2004 package of two SCOs (one nested in a folder item) and an asset, each its own file. */
async function twoScoPackage(): Promise<Buffer> {
  const manifest = `<?xml version="1.0" encoding="UTF-8"?>
<manifest identifier="test.multi" version="1" xmlns="http://www.imsglobal.org/xsd/imscp_v1p1" xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_v1p3">
  <metadata><schema>ADL SCORM</schema><schemaversion>2004 4th Edition</schemaversion></metadata>
  <organizations default="ORG"><organization identifier="ORG"><title>Two SCOs</title>
    <item identifier="SCO_A" identifierref="RA"><title>A</title></item>
    <item identifier="FOLDER"><title>Folder</title>
      <item identifier="SCO_B" identifierref="RB" parameters="?part=b"><title>B</title></item>
      <item identifier="GLOSSARY" identifierref="RG"><title>Glossary</title></item>
    </item>
  </organization></organizations>
  <resources>
    <resource identifier="RA" type="webcontent" adlcp:scormType="sco" href="a/index.html"><file href="a/index.html"/></resource>
    <resource identifier="RB" type="webcontent" adlcp:scormType="sco" href="b/index.html"><file href="b/index.html"/></resource>
    <resource identifier="RG" type="webcontent" adlcp:scormType="asset" href="glossary.html"><file href="glossary.html"/></resource>
  </resources>
</manifest>`;
  return zip([
    ['imsmanifest.xml', manifest],
    ['a/index.html', '<!doctype html><title>A</title>'],
    ['b/index.html', '<!doctype html><title>B</title>'],
    ['glossary.html', '<!doctype html><title>G</title>'],
  ]);
}

/** A cmi5 course of AUs with the given moveOn (ids au1, au2, ...), the last ones in a block. */
async function multiAuPackage(moveOns: string[]): Promise<Buffer> {
  const au = (m: string, i: number) =>
    `<au id="https://example.test/cmi5/au${i + 1}" moveOn="${m}"><title><langstring lang="en-US">AU ${i + 1}</langstring></title><description><langstring lang="en-US">d</langstring></description><url>au${i + 1}/index.html</url></au>`;
  const first = moveOns.slice(0, 1).map((m) => au(m, 0));
  const rest = moveOns.slice(1).map((m, i) => au(m, i + 1));
  const xml = `<?xml version="1.0" encoding="utf-8"?>
<courseStructure xmlns="https://w3id.org/xapi/profiles/cmi5/v1/CourseStructure.xsd">
  <course id="https://example.test/cmi5/multi"><title><langstring lang="en-US">multi</langstring></title><description><langstring lang="en-US">d</langstring></description></course>
  ${first.join('\n')}
  <block id="https://example.test/cmi5/block"><title><langstring lang="en-US">B</langstring></title><description><langstring lang="en-US">d</langstring></description>${rest.join('\n')}</block>
</courseStructure>`;
  return zip([['cmi5.xml', xml], ...moveOns.map((_, i) => [`au${i + 1}/index.html`, '<!doctype html><title>AU</title>'] as [string, string])]);
}

/**
 * A cmi5 course with nested blocks, AUs and blocks mixed at one level:
 * block `part1` { AU a1 (Completed), block `part1.quiz` { AU a2 (Passed) }, AU a3 (NotApplicable) },
 * then AU a4 (Completed) at the course level.
 */
async function blocksPackage(): Promise<Buffer> {
  const au = (id: string, moveOn: string) =>
    `<au id="https://example.test/cmi5/${id}" moveOn="${moveOn}"><title><langstring lang="en-US">${id}</langstring></title><description><langstring lang="en-US">d</langstring></description><url>${id}/index.html</url></au>`;
  const block = (id: string, inner: string) =>
    `<block id="https://example.test/cmi5/${id}"><title><langstring lang="en-US">${id}</langstring></title><description><langstring lang="en-US">d</langstring></description>${inner}</block>`;
  const xml = `<?xml version="1.0" encoding="utf-8"?>
<courseStructure xmlns="https://w3id.org/xapi/profiles/cmi5/v1/CourseStructure.xsd">
  <course id="https://example.test/cmi5/blocks"><title><langstring lang="en-US">blocks</langstring></title><description><langstring lang="en-US">d</langstring></description></course>
  ${block('part1', `${au('a1', 'Completed')}${block('part1.quiz', au('a2', 'Passed'))}${au('a3', 'NotApplicable')}`)}
  ${au('a4', 'Completed')}
</courseStructure>`;
  return zip([['cmi5.xml', xml], ...['a1', 'a2', 'a3', 'a4'].map((id) => [`${id}/index.html`, '<!doctype html><title>AU</title>'] as [string, string])]);
}

/**
 * Packages of several SCOs or AUs (docs/decisions/content-runs.md "Items"): a launch names the
 * item it plays (4xx for one the package has not), each item has its own attempts, and the lesson
 * completes only when the rollup of all items says so (SCORM: every SCO completed; cmi5: every AU
 * whose moveOn is not NotApplicable satisfied, then one `satisfied` for the course). An
 * administrator completing the lesson of a cmi5 registration waives the AUs not satisfied.
 */
describe('multi-SCO and multi-AU lessons', () => {
  const world = contentRunsWorld();
  let t: TestApp;
  let zips: ContentRunsWorld['zips'];
  beforeAll(() => ({ t, zips } = world));

  const lessonProgress = async (lessonId: string) =>
    (await t.ds.query(`SELECT completed_at, success_status, score FROM lesson_progress WHERE lesson_id = $1`, [decodeId('lesson', lessonId)]))[0] as {
      completed_at: Date | null;
      success_status: string | null;
      score: number | null;
    };
  const orgKeyHeaders = async (key: { basic: string }) => {
    const k = await t.post('/v1/lrs-keys', {}, key);
    return { headers: { Authorization: `Basic ${Buffer.from(`${k.body.key}:${k.body.secret}`).toString('base64')}`, 'X-Experience-API-Version': '1.0.3' } };
  };

  it('SCORM: a named SCO launches its own file with its own attempt; the lesson completes when every SCO has; unknown items are 400 / 422', async () => {
    const org = await t.newOrg();
    const key = { basic: org.api_key };
    const c = await webPackageCourse(t, org, zips.host('two-scos.zip', await twoScoPackage()));
    const launch = (item?: unknown) => t.post(`/v1/lessons/${c.lessonId}/launches`, { user: { id: c.learner.id }, ...(item === undefined ? {} : { item }) }, key);

    // an item the package has not, or not a string: 400 naming `item` (/v1), 422 with its pointer (/v2); nothing made
    const unknown = await launch('SCO_C');
    expect(unknown.status).toBe(400);
    expect(unknown.body).toHaveProperty('item');
    expect((await launch('FOLDER')).status).toBe(400);
    expect((await launch(7)).status).toBe(400);
    const v2 = await t.post('/v2/launches/', { data: { type: 'launches', attributes: { lesson_id: c.lessonId, student_id: c.learner.id, item: 'SCO_C' } } }, { token: await t.tokenFor(org) });
    expect(v2.status).toBe(422);
    expect(JSON.stringify(v2.body)).toContain('/data/attributes/item');
    expect(await t.ds.query(`SELECT count(*)::int AS n FROM content_launches`)).toEqual([{ n: 0 }]);

    // SCO B, named: its own file and parameters, its own attempt
    const b = await launch('SCO_B');
    expect(b.status).toBe(201);
    expect(b.body.item).toBe('SCO_B');
    const sb = await openLaunch(t, b.body.launch_url);
    expect((await t.get(sb)).text).toContain('c/b/index.html?part=b');
    expect(await rt(t, sb, 'initialize')).toMatchObject({ value: 'true' });
    expect(await rt(t, sb, 'set', { element: 'cmi.completion_status', value: 'completed' })).toMatchObject({ error: 0 });
    expect(await rt(t, sb, 'set', { element: 'cmi.score.scaled', value: '0.6' })).toMatchObject({ error: 0 });
    expect(await rt(t, sb, 'terminate')).toMatchObject({ value: 'true' });
    // one of two SCOs: not complete (the asset does not count)
    expect((await lessonProgress(c.lessonId)).completed_at).toBeNull();

    // no item named: the first SCO, A, with an attempt of its own (a fresh data model)
    const a = await launch(undefined);
    expect(a.body.item).toBe('SCO_A');
    const sa = await openLaunch(t, a.body.launch_url);
    expect((await t.get(sa)).text).toContain('c/a/index.html');
    await rt(t, sa, 'initialize');
    expect(await rt(t, sa, 'get', { element: 'cmi.completion_status' })).toMatchObject({ value: 'unknown' });
    await rt(t, sa, 'set', { element: 'cmi.completion_status', value: 'completed' });
    await rt(t, sa, 'set', { element: 'cmi.success_status', value: 'passed' });
    await rt(t, sa, 'set', { element: 'cmi.score.scaled', value: '1' });
    await rt(t, sa, 'terminate');
    expect(await lessonProgress(c.lessonId)).toMatchObject({ completed_at: expect.any(Date), score: 80 });
    const attempts = await t.ds.query(`SELECT item, number, completed FROM content_attempts ORDER BY item`);
    expect(attempts).toEqual([
      { item: 'SCO_A', number: 1, completed: true },
      { item: 'SCO_B', number: 1, completed: true },
    ]);

    // the asset launches too (its own file), and changes nothing of the rollup
    const g = await launch('GLOSSARY');
    expect(g.status).toBe(201);
    expect((await t.get(await openLaunch(t, g.body.launch_url))).text).toContain('c/glossary.html');
  });

  /** Launch AUs of a cmi5 lesson and send the AU's statements with each launch's own key. */
  const cmi5Runner = (lessonId: string, learnerId: string, key: { basic: string }, ox: { headers: Record<string, string> }) => {
    const launchAu = async (item?: string) => {
      const res = await t.post(`/v1/lessons/${lessonId}/launches`, { user: { id: learnerId }, ...(item ? { item } : {}) }, key);
      expect(res.status).toBe(201);
      const loc = await fetch(res.body.launch_url, { redirect: 'manual' });
      expect(loc.status).toBe(302);
      const url = new URL(loc.headers.get('location')!, t.baseUrl);
      return { res, url, q: url.searchParams };
    };
    const tokens = new Map<string, string>();
    const send = async (l: Awaited<ReturnType<typeof launchAu>>, verb: string, result: Record<string, unknown>) => {
      const fetchUrl = l.q.get('fetch')!;
      if (!tokens.has(fetchUrl)) tokens.set(fetchUrl, ((await (await fetch(fetchUrl, { method: 'POST' })).json()) as Record<string, string>)['auth-token']);
      const token = tokens.get(fetchUrl)!;
      const launched = await t.get(`/xapi/statements?verb=${verbUrl('launched')}&registration=${l.q.get('registration')}&limit=1`, ox);
      const st = {
        actor: JSON.parse(l.q.get('actor')!),
        verb: { id: `http://adlnet.gov/expapi/verbs/${verb}` },
        object: { id: l.q.get('activityId'), objectType: 'Activity' },
        result,
        context: {
          registration: l.q.get('registration'),
          contextActivities: { category: [{ id: 'https://w3id.org/xapi/cmi5/context/categories/cmi5' }] },
          extensions: { [SID]: launched.body.statements[0].context.extensions[SID] },
        },
      };
      return t.post('/xapi/statements', st, { headers: { Authorization: `Basic ${token}`, 'X-Experience-API-Version': '1.0.3' } });
    };
    return { launchAu, send };
  };
  /** The objects of the registration's `satisfied` statements, in the order they were stored. */
  const satisfiedObjects = async (ox: { headers: Record<string, string> }, registration: string) =>
    ((await t.get(`/xapi/statements?verb=${encodeURIComponent(SATISFIED)}&registration=${registration}&ascending=true`, ox)).body.statements as any[]).map(
      (s) => `${s.object.definition?.type?.split('/').pop()} ${s.object.id}`,
    );

  it('cmi5: AUs share the registration; the course is satisfied (once) when every AU with a moveOn is; NotApplicable alone satisfies nothing more', async () => {
    const org = await t.newOrg();
    const key = { basic: org.api_key };
    const c = await webPackageCourse(t, org, zips.host('multi-au.zip', await multiAuPackage(['Completed', 'Passed', 'NotApplicable'])));
    const ox = await orgKeyHeaders(key);
    const { launchAu, send } = cmi5Runner(c.lessonId, c.learner.id, key, ox);
    const satisfied = async (registration: string) => (await t.get(`/xapi/statements?verb=${encodeURIComponent(SATISFIED)}&registration=${registration}`, ox)).body.statements as any[];

    expect((await t.post(`/v1/lessons/${c.lessonId}/launches`, { user: { id: c.learner.id }, item: 'https://example.test/cmi5/au9' }, key)).status).toBe(400);

    // the NotApplicable AU (in the block): satisfied as such, the course is not
    const na = await launchAu('https://example.test/cmi5/au3');
    expect(na.url.pathname).toMatch(/\/c\/au3\/index\.html$/);
    expect(na.q.get('activityId')).toBe('https://example.test/cmi5/au3');
    const registration = na.q.get('registration')!;
    expect((await lessonProgress(c.lessonId)).completed_at).toBeNull();
    expect(await satisfied(registration)).toEqual([]);

    // AU 1 (the default), moveOn Completed, in the same registration
    const au1 = await launchAu();
    expect(au1.q.get('activityId')).toBe('https://example.test/cmi5/au1');
    expect(au1.q.get('registration')).toBe(registration);
    expect((await send(au1, 'completed', { completion: true })).status).toBe(200);
    expect((await lessonProgress(c.lessonId)).completed_at).toBeNull();

    // AU 2, moveOn Passed: its passed statement satisfies the course
    const au2 = await launchAu('https://example.test/cmi5/au2');
    expect(au2.q.get('registration')).toBe(registration);
    const state = await t.get(
      `/xapi/activities/state?${new URLSearchParams({ activityId: 'https://example.test/cmi5/au2', agent: au2.q.get('actor')!, registration, stateId: 'LMS.LaunchData' })}`,
      ox,
    );
    expect(state.body.moveOn).toBe('Passed');
    expect((await send(au2, 'passed', { success: true, score: { scaled: 0.7 } })).status).toBe(200);
    expect(await lessonProgress(c.lessonId)).toMatchObject({ completed_at: expect.any(Date), success_status: 'PASSED', score: 70 });
    // the block (AU 2 and the NotApplicable AU 3) first, then the course
    expect(await satisfiedObjects(ox, registration)).toEqual(['block https://example.test/cmi5/block', 'course https://example.test/cmi5/multi']);

    // more statements satisfy nothing again
    expect((await send(au1, 'completed', { completion: true })).status).toBe(200);
    expect(await satisfied(registration)).toHaveLength(2);
  });

  it('cmi5 blocks: items in course structure order; not launchable; each satisfied (once) when all it holds is, inner first; the course when its AUs and blocks are', async () => {
    const org = await t.newOrg();
    const key = { basic: org.api_key };
    const c = await webPackageCourse(t, org, zips.host('blocks.zip', await blocksPackage()));
    const ox = await orgKeyHeaders(key);
    const { launchAu, send } = cmi5Runner(c.lessonId, c.learner.id, key, ox);
    const id = (x: string) => `https://example.test/cmi5/${x}`;

    // the package's items: blocks and AUs in the order of the course structure, each naming its block
    const [{ launch_data }] = await t.ds.query(`SELECT launch_data FROM web_packages WHERE id = $1`, [decodeId('webPackage', c.pkg.id)]);
    expect(launch_data.items.map((i: any) => [i.kind ?? 'au', i.id.split('/').pop(), i.block?.split('/').pop() ?? null])).toEqual([
      ['block', 'part1', null],
      ['au', 'a1', 'part1'],
      ['block', 'part1.quiz', 'part1'],
      ['au', 'a2', 'part1.quiz'],
      ['au', 'a3', 'part1'],
      ['au', 'a4', null],
    ]);

    // a block is not launched; the default is the first AU of the course structure (in a block)
    const asBlock = await t.post(`/v1/lessons/${c.lessonId}/launches`, { user: { id: c.learner.id }, item: id('part1') }, key);
    expect(asBlock.status).toBe(400);
    const a1 = await launchAu();
    expect(a1.q.get('activityId')).toBe(id('a1'));
    const registration = a1.q.get('registration')!;

    // a2 passed: its block part1.quiz is satisfied; part1 is not (a1 is not yet), nor the course
    const a2 = await launchAu(id('a2'));
    expect((await send(a2, 'passed', { success: true, score: { scaled: 0.8 } })).status).toBe(200);
    expect(await satisfiedObjects(ox, registration)).toEqual([`block ${id('part1.quiz')}`]);

    // a1 completed: part1 is (a3 is NotApplicable); the course is not: a4 is its own AU
    expect((await send(a1, 'completed', { completion: true })).status).toBe(200);
    expect(await satisfiedObjects(ox, registration)).toEqual([`block ${id('part1.quiz')}`, `block ${id('part1')}`]);
    expect((await lessonProgress(c.lessonId)).completed_at).toBeNull();

    // a4 completed: the course, and the lesson
    const a4 = await launchAu(id('a4'));
    expect((await send(a4, 'completed', { completion: true })).status).toBe(200);
    expect(await satisfiedObjects(ox, registration)).toEqual([`block ${id('part1.quiz')}`, `block ${id('part1')}`, `course ${id('blocks')}`]);
    expect(await lessonProgress(c.lessonId)).toMatchObject({ completed_at: expect.any(Date), success_status: 'PASSED', score: 80 });

    // again: no block or course satisfied twice
    expect((await send(a2, 'passed', { success: true, score: { scaled: 0.9 } })).status).toBe(200);
    expect(await satisfiedObjects(ox, registration)).toHaveLength(3);
  });

  it('cmi5 waived: an administrator completing the lesson waives the AUs not satisfied, then the course is satisfied, once', async () => {
    const org = await t.newOrg();
    const key = { basic: org.api_key };
    const c = await webPackageCourse(t, org, zips.host('waive.zip', await multiAuPackage(['Completed', 'Completed', 'NotApplicable'])));
    const ox = await orgKeyHeaders(key);
    const complete = () => t.patch(`/v1/users/${c.learner.id}/published-courses/${c.publishedCourseId}/lessons/${c.lessonId}`, { lesson_progress: { completed_at: '2026-02-01T00:00:00Z' } }, key);

    // AU 1 launched and completed (satisfied); AU 2 never launched; AU 3 NotApplicable
    const res = await t.post(`/v1/lessons/${c.lessonId}/launches`, { user: { id: c.learner.id } }, key);
    const loc = new URL((await fetch(res.body.launch_url, { redirect: 'manual' })).headers.get('location')!, t.baseUrl);
    const q = loc.searchParams;
    const registration = q.get('registration')!;
    const token = ((await (await fetch(q.get('fetch')!, { method: 'POST' })).json()) as Record<string, string>)['auth-token'];
    const launched = await t.get(`/xapi/statements?verb=${verbUrl('launched')}&registration=${registration}`, ox);
    const done = await t.post(
      '/xapi/statements',
      {
        actor: JSON.parse(q.get('actor')!),
        verb: { id: 'http://adlnet.gov/expapi/verbs/completed' },
        object: { id: q.get('activityId'), objectType: 'Activity' },
        result: { completion: true },
        context: {
          registration,
          contextActivities: { category: [{ id: 'https://w3id.org/xapi/cmi5/context/categories/cmi5' }] },
          extensions: { [SID]: launched.body.statements[0].context.extensions[SID] },
        },
      },
      { headers: { Authorization: `Basic ${token}`, 'X-Experience-API-Version': '1.0.3' } },
    );
    expect(done.status).toBe(200);
    expect((await lessonProgress(c.lessonId)).completed_at).toBeNull();

    expect((await complete()).status).toBe(200);
    expect((await lessonProgress(c.lessonId)).completed_at).toEqual(new Date('2026-02-01T00:00:00Z'));
    const waived = (await t.get(`/xapi/statements?verb=${encodeURIComponent(WAIVED)}&registration=${registration}`, ox)).body.statements as any[];
    // only AU 2: AU 1 was satisfied, AU 3 is NotApplicable
    expect(waived).toHaveLength(1);
    expect(waived[0]).toMatchObject({
      actor: JSON.parse(q.get('actor')!),
      object: { id: 'https://example.test/cmi5/au2' },
      result: { success: true, completion: true },
      context: {
        registration,
        contextActivities: {
          category: expect.arrayContaining([{ id: 'https://w3id.org/xapi/cmi5/context/categories/cmi5' }, { id: 'https://w3id.org/xapi/cmi5/context/categories/moveon' }]),
        },
        extensions: { 'https://w3id.org/xapi/cmi5/context/extensions/reason': 'Administrative', [SID]: expect.any(String) },
      },
    });
    const sat = (await t.get(`/xapi/statements?verb=${encodeURIComponent(SATISFIED)}&registration=${registration}&ascending=true`, ox)).body.statements as any[];
    // the block of AU 2 and AU 3, then the course
    expect(await satisfiedObjects(ox, registration)).toEqual(['block https://example.test/cmi5/block', 'course https://example.test/cmi5/multi']);
    // waived came first, in the same session as satisfied
    expect(sat[0].context.extensions[SID]).toBe(waived[0].context.extensions[SID]);

    // completing it again waives and satisfies nothing more
    expect((await complete()).status).toBe(200);
    expect((await t.get(`/xapi/statements?verb=${encodeURIComponent(WAIVED)}&registration=${registration}`, ox)).body.statements).toHaveLength(1);
    expect((await t.get(`/xapi/statements?verb=${encodeURIComponent(SATISFIED)}&registration=${registration}`, ox)).body.statements).toHaveLength(2);

    // a lesson with no cmi5 registration: completing it writes no statement
    const other = await webPackageCourse(t, org, zips.host('waive-none.zip', await multiAuPackage(['Completed'])));
    const before = (await t.get(`/xapi/statements?limit=100`, ox)).body.statements.length;
    expect(
      (await t.patch(`/v1/users/${other.learner.id}/published-courses/${other.publishedCourseId}/lessons/${other.lessonId}`, { lesson_progress: { completed_at: '2026-02-01T00:00:00Z' } }, key))
        .status,
    ).toBe(200);
    expect((await t.get(`/xapi/statements?limit=100`, ox)).body.statements.length).toBe(before);
  });
});
