import { INestApplicationContext } from '@nestjs/common';
import http from 'node:http';
import { AddressInfo } from 'node:net';
import { ZipFile } from 'yazl';
import { loadConfig } from '../../src/core/config/config';
import type { CreatedOrg } from '../../src/modules/organizations/organizations.service';
import { createWorker } from '../../src/worker';
import { startTestApp, type TestApp } from '../support/app';
import { dropRedisPrefix } from '../support/webhook-receiver';
import { journey } from '../support/learner-journey';

/** A zip written in memory with yazl. */
export function zip(entries: [string, string | Buffer][]): Promise<Buffer> {
  const z = new ZipFile();
  for (const [name, data] of entries) z.addBuffer(Buffer.isBuffer(data) ? data : Buffer.from(data), name);
  z.end();
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    z.outputStream.on('data', (c: Buffer) => chunks.push(c));
    z.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
    z.outputStream.on('error', reject);
  });
}

/**
 * The content of a small SCO that drives the API itself when it loads: finds the API in its
 * parents, initializes, reads entry / location / suspend_data, and on a second visit (entry
 * `resume`) completes and passes with a score, else records a location and suspend data and
 * suspends. What it saw is written into the page (`#log`, `data-done`) for the test to read.
 */
export function scoPage(version: '1.2' | '2004'): string {
  const v12 = version === '1.2';
  const calls = v12
    ? { api: 'API', init: 'LMSInitialize', get: 'LMSGetValue', set: 'LMSSetValue', commit: 'LMSCommit', term: 'LMSFinish', err: 'LMSGetLastError' }
    : { api: 'API_1484_11', init: 'Initialize', get: 'GetValue', set: 'SetValue', commit: 'Commit', term: 'Terminate', err: 'GetLastError' };
  const el = v12
    ? { entry: 'cmi.core.entry', location: 'cmi.core.lesson_location', name: 'cmi.core.student_name', exit: 'cmi.core.exit', time: 'cmi.core.session_time', timeValue: '0000:01:30.00' }
    : { entry: 'cmi.entry', location: 'cmi.location', name: 'cmi.learner_name', exit: 'cmi.exit', time: 'cmi.session_time', timeValue: 'PT1M30S' };
  const finish = v12
    ? `api.${calls.set}('cmi.core.lesson_status', 'passed'); api.${calls.set}('cmi.core.score.raw', '85'); api.${calls.set}('cmi.core.score.max', '100'); api.${calls.set}('cmi.core.exit', '');`
    : `api.${calls.set}('cmi.completion_status', 'completed'); api.${calls.set}('cmi.success_status', 'passed'); api.${calls.set}('cmi.score.scaled', '0.85'); api.${calls.set}('cmi.exit', 'normal');`;
  return `<!doctype html><html><head><meta charset="utf-8"><title>SCO</title></head><body><pre id="log"></pre>
<script src="js/sco.js"></script>
<script>
(function () {
  function find(w) { for (var i = 0; i < 10 && w; i++) { if (w.${calls.api}) return w.${calls.api}; if (w.parent === w) break; w = w.parent; } return null; }
  var api = find(window) || (window.opener && find(window.opener));
  var log = [];
  function note(k, v) { log.push(k + '=' + v); document.getElementById('log').textContent = log.join('\\n'); }
  if (!api) { note('api', 'missing'); document.body.setAttribute('data-done', 'no-api'); return; }
  note('helper', typeof scoHelper === 'function' ? scoHelper() : 'missing');
  note('init', api.${calls.init}(''));
  var entry = api.${calls.get}('${el.entry}');
  note('entry', entry);
  note('name', api.${calls.get}('${el.name}'));
  note('location', api.${calls.get}('${el.location}'));
  note('suspend_data', api.${calls.get}('cmi.suspend_data'));
  note('bad_set', api.${calls.set}('cmi.suspend_data', new Array(${v12 ? 4098 : 64002}).join('x')) + '/' + api.${calls.err}());
  if (entry === 'resume') {
    ${finish}
  } else {
    api.${calls.set}('${el.location}', 'page-7');
    api.${calls.set}('cmi.suspend_data', 'answers:A,B,C;' + location.search.slice(1));
    api.${calls.set}('${el.exit}', 'suspend');
  }
  api.${calls.set}('${el.time}', '${el.timeValue}');
  note('commit', api.${calls.commit}(''));
  note('term', api.${calls.term}(''));
  note('after', api.${calls.get}('${el.location}') + '/' + api.${calls.err}());
  document.body.setAttribute('data-done', entry === 'resume' ? 'completed' : 'suspended');
})();
</script></body></html>`;
}

export const SCO_HELPER = `function scoHelper() { return 'loaded'; }`;

export function scorm12Manifest(opts: { href?: string; resourcesBase?: string; parameters?: string } = {}): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<manifest identifier="test.scorm12" version="1.0" xmlns="http://www.imsproject.org/xsd/imscp_rootv1p1p2" xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_rootv1p2">
  <metadata><schema>ADL SCORM</schema><schemaversion>1.2</schemaversion></metadata>
  <organizations default="ORG"><organization identifier="ORG"><title>Fire safety (SCORM 1.2)</title>
    <item identifier="I1" identifierref="R1"${opts.parameters ? ` parameters="${opts.parameters}"` : ''}><title>SCO 1</title></item>
  </organization></organizations>
  <resources${opts.resourcesBase ? ` xml:base="${opts.resourcesBase}"` : ''}>
    <resource identifier="R1" type="webcontent" adlcp:scormtype="sco" href="${opts.href ?? 'index.html'}"><file href="${opts.href ?? 'index.html'}"/></resource>
  </resources>
</manifest>`;
}

export function scorm2004Manifest(opts: { href?: string; resourcesBase?: string; parameters?: string } = {}): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<manifest identifier="test.scorm2004" version="1" xmlns="http://www.imsglobal.org/xsd/imscp_v1p1" xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_v1p3" xmlns:imsss="http://www.imsglobal.org/xsd/imsss">
  <metadata><schema>ADL SCORM</schema><schemaversion>2004 4th Edition</schemaversion></metadata>
  <organizations default="ORG"><organization identifier="ORG"><title>Data ethics (SCORM 2004)</title>
    <item identifier="I1" identifierref="R1"${opts.parameters ? ` parameters="${opts.parameters}"` : ''}><title>SCO 1</title></item>
  </organization></organizations>
  <resources${opts.resourcesBase ? ` xml:base="${opts.resourcesBase}"` : ''}>
    <resource identifier="R1" type="webcontent" adlcp:scormType="sco" href="${opts.href ?? 'index.html'}"><file href="${opts.href ?? 'index.html'}"/></resource>
  </resources>
</manifest>`;
}

/** SCORM packages the tests play: the launch file under `resources/` (named through xml:base), with item parameters. */
export async function scormPackage(version: '1.2' | '2004'): Promise<Buffer> {
  const manifest =
    version === '1.2'
      ? scorm12Manifest({ href: 'sco.html', resourcesBase: 'resources/', parameters: '?lang=en' })
      : scorm2004Manifest({ href: './sco.html', resourcesBase: 'resources/', parameters: '?lang=en' });
  return zip([
    ['imsmanifest.xml', manifest],
    ['resources/sco.html', scoPage(version)],
    ['resources/js/sco.js', SCO_HELPER],
  ]);
}

/** A local server the worker downloads packages from. */
export async function serveZips() {
  const bodies = new Map<string, Buffer>();
  const server = http.createServer((req, res) => {
    const body = bodies.get((req.url ?? '').split('?')[0]);
    if (body) res.writeHead(200, { 'content-type': 'application/zip' }).end(body);
    else res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as AddressInfo;
  return {
    host: (name: string, body: Buffer) => {
      bodies.set(`/${name}`, body);
      return `http://127.0.0.1:${port}/${name}`;
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

export async function startWorker(t: TestApp): Promise<INestApplicationContext> {
  const w = await createWorker(loadConfig(process.env, { ...t.config, WEBHOOK_RELAY_INTERVAL_MS: 100, WEBHOOK_RETRY_SCALE: 0.001 }));
  await w.init();
  return w;
}

const ok = (res: { status: number; body: any }, what: string) => {
  if (res.status !== 200 && res.status !== 201) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
};

/**
 * Through the API: a web package imported by the worker from `zipUrl`, a course whose only
 * required lesson plays it (plus an optional HTML lesson), published; a learner enrolled.
 */
export async function webPackageCourse(t: TestApp, org: CreatedOrg, zipUrl: string) {
  const key = { basic: org.api_key };
  const pkg = ok(await t.post('/v1/web-packages', { content_url: zipUrl, web_package: { title: 'Package' } }, key), 'create web package');
  let state = pkg.state;
  for (let i = 0; i < 400 && state === 'PROCESSING'; i++) {
    await new Promise((r) => setTimeout(r, 50));
    state = (await t.get(`/v1/web-packages/${pkg.id}`, key)).body.state;
  }
  if (state !== 'READY') throw new Error(`web package ${state}: ${JSON.stringify((await t.get(`/v1/web-packages/${pkg.id}`, key)).body)}`);
  const j = journey(t, org);
  const course = ok(await t.post('/v1/courses', { title: `SCORM course ${Date.now()}`, short_description: 'S', enforce_sequential_navigation: false }, key), 'course');
  const lesson = ok(await t.post('/v1/lessons', { course_id: course.id, order: 1, title: 'The package', type: 'WEB_PACKAGE', content_web_package_id: pkg.id, optional: false }, key), 'lesson');
  ok(await t.post('/v1/lessons', { course_id: course.id, order: 2, title: 'Reading', type: 'HTML', optional: true }, key), 'optional lesson');
  const pc = ok(
    await t.post(`/v1/domains/${org.domain_name}/published-courses`, { course: { id: course.id }, slug: `c-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}` }, key),
    'publish',
  );
  const learner = await j.learner();
  await j.enroll(learner.id, pc.id);
  return { pkg, courseId: course.id as string, lessonId: lesson.id as string, publishedCourseId: pc.id as string, learner, journey: j };
}

/** Follow a launch URL (once) and answer the session path `/play/<session>/`. */
export async function openLaunch(t: TestApp, launchUrl: string): Promise<string> {
  const res = await fetch(launchUrl, { redirect: 'manual' });
  if (res.status !== 302) throw new Error(`launch answered ${res.status}: ${await res.text()}`);
  return res.headers.get('location')!;
}

/** A runtime call on a session path. */
export async function rt(t: TestApp, session: string, call: string, body: Record<string, unknown> = {}) {
  const res = await t.post(`${session}runtime/${call}`, body);
  if (res.status !== 200) throw new Error(`runtime ${call}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as { value: string; error: number; diagnostic?: string };
}

/**
 * A cmi5 AU that drives the LMS side itself when it loads: reads its launch parameters, uses the
 * fetch URL once, reads LMS.LaunchData, then sends initialized, completed, passed (score 0.9) and
 * terminated in its registration and session; what it saw goes into `#log` and `data-done`.
 */
export const CMI5_AU = `<!doctype html><html><head><meta charset="utf-8"><title>AU</title></head><body><pre id="log"></pre><script>
(async function () {
  var log = [];
  function note(k, v) { log.push(k + '=' + v); document.getElementById('log').textContent = log.join('\\n'); }
  try {
    var q = new URLSearchParams(location.search);
    var endpoint = q.get('endpoint'), actor = JSON.parse(q.get('actor')), registration = q.get('registration'), au = q.get('activityId');
    var fetched = await fetch(q.get('fetch'), { method: 'POST' });
    var auth = 'Basic ' + (await fetched.json())['auth-token'];
    note('again', (await fetch(q.get('fetch'), { method: 'POST' })).status);
    var h = { Authorization: auth, 'X-Experience-API-Version': '1.0.3', 'Content-Type': 'application/json' };
    var stateUrl = endpoint + 'activities/state?' + new URLSearchParams({ activityId: au, agent: JSON.stringify(actor), registration: registration, stateId: 'LMS.LaunchData' });
    var launchData = await (await fetch(stateUrl, { headers: h })).json();
    note('moveOn', launchData.moveOn);
    note('masteryScore', launchData.masteryScore);
    var ctx = { registration: registration, contextActivities: { category: [{ id: 'https://w3id.org/xapi/cmi5/context/categories/cmi5' }] }, extensions: launchData.contextTemplate.extensions };
    function st(verb, result) { var s = { actor: actor, verb: { id: 'http://adlnet.gov/expapi/verbs/' + verb }, object: { id: au, objectType: 'Activity' }, context: ctx }; if (result) s.result = result; return s; }
    async function send(s) { return (await fetch(endpoint + 'statements', { method: 'POST', headers: h, body: JSON.stringify(s) })).status; }
    note('initialized', await send(st('initialized')));
    note('completed', await send(st('completed', { completion: true, duration: 'PT1M' })));
    note('passed', await send(st('passed', { success: true, score: { scaled: 0.9 }, duration: 'PT1M' })));
    note('terminated', await send(st('terminated', { duration: 'PT2M' })));
    document.body.setAttribute('data-done', 'completed');
  } catch (e) { note('error', String(e)); document.body.setAttribute('data-done', 'error'); }
})();
</script></body></html>`;

export function cmi5Xml(opts: { moveOn?: string; masteryScore?: number } = {}): string {
  return `<?xml version="1.0" encoding="utf-8"?>
<courseStructure xmlns="https://w3id.org/xapi/profiles/cmi5/v1/CourseStructure.xsd">
  <course id="https://example.test/cmi5/course"><title><langstring lang="en-US">cmi5 course</langstring></title><description><langstring lang="en-US">d</langstring></description></course>
  <au id="https://example.test/cmi5/au1" moveOn="${opts.moveOn ?? 'CompletedAndPassed'}"${opts.masteryScore !== undefined ? ` masteryScore="${opts.masteryScore}"` : ''} launchMethod="AnyWindow">
    <title><langstring lang="en-US">AU 1</langstring></title><description><langstring lang="en-US">d</langstring></description>
    <url>au/index.html</url>
  </au>
</courseStructure>`;
}

export async function cmi5Package(opts: { moveOn?: string; masteryScore?: number } = {}): Promise<Buffer> {
  return zip([
    ['cmi5.xml', cmi5Xml(opts)],
    ['au/index.html', CMI5_AU],
  ]);
}

export async function tincanPackage(): Promise<Buffer> {
  return zip([
    [
      'tincan.xml',
      `<?xml version="1.0" encoding="utf-8"?><tincan xmlns="http://projecttincan.com/tincan.xsd"><activities>
        <activity id="https://example.test/tincan/course" type="http://adlnet.gov/expapi/activities/course"><name lang="en-US">TinCan course</name><launch lang="en-us">story.html</launch></activity>
      </activities></tincan>`,
    ],
    ['story.html', '<!doctype html><title>story</title><p>story</p>'],
  ]);
}

/** What `contentRunsWorld()` starts for a test file. */
export interface ContentRunsWorld {
  t: TestApp;
  zips: Awaited<ReturnType<typeof serveZips>>;
  worker: INestApplicationContext;
}

/**
 * The API (private URLs allowed: the packages are served from 127.0.0.1), a zip server and a
 * worker, started before the file's tests and closed after them (its Redis prefix dropped). The
 * members are filled in by the time the file's own `beforeAll` hooks run.
 */
export function contentRunsWorld(): ContentRunsWorld {
  const world = {} as ContentRunsWorld;
  beforeAll(async () => {
    world.t = await startTestApp({ ALLOW_PRIVATE_URLS: true });
    world.zips = await serveZips();
    world.worker = await startWorker(world.t);
  });
  afterAll(async () => {
    await world.worker?.close();
    await world.zips?.close();
    await world.t?.close();
    if (world.t) await dropRedisPrefix(world.t.config.REDIS_URL, world.t.config.REDIS_PREFIX);
  });
  return world;
}
