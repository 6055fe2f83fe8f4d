import { decodeId } from '../../src/core/ids/ids';
import type { CreatedOrg } from '../../src/modules/organizations/organizations.service';
import { TestApp } from '../support/app';
import { orgUuid } from '../support/fixtures';
import { journey } from '../support/learner-journey';
import { openLaunch, rt, webPackageCourse, zip, contentRunsWorld, ContentRunsWorld } from './support';

jest.setTimeout(120_000);

const NOTES = 'urn:example:golf:notes';
const SCORES = 'urn:example:golf:scores';

/**
 * A SCORM 2004 4th edition package of three SCOs: WRITER reads and writes the notes bucket and
 * only writes the scores bucket; READER has both with the CAM's defaults (read, not write); PLAIN
 * declares none. `global` sets the organization's adlcp:sharedDataGlobalToSystem (absent: true).
 */
async function sharedDataPackage(global?: boolean): Promise<Buffer> {
  const attr = global === undefined ? '' : ` adlcp:sharedDataGlobalToSystem="${global}"`;
  const manifest = `<?xml version="1.0" encoding="UTF-8"?>
<manifest identifier="test.shared" version="1" xmlns="http://www.imsglobal.org/xsd/imscp_v1p1" xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_v1p3">
  <metadata><schema>ADL SCORM</schema><schemaversion>2004 4th Edition</schemaversion></metadata>
  <organizations default="ORG"><organization identifier="ORG"${attr}><title>Shared data</title>
    <item identifier="WRITER" identifierref="RW"><title>Writer</title>
      <adlcp:data>
        <adlcp:map targetID="${NOTES}" readSharedData="true" writeSharedData="true"/>
        <adlcp:map targetID="${SCORES}" readSharedData="false" writeSharedData="true"/>
      </adlcp:data>
    </item>
    <item identifier="READER" identifierref="RR"><title>Reader</title>
      <adlcp:data><adlcp:map targetID="${NOTES}"/><adlcp:map targetID="${SCORES}"/></adlcp:data>
    </item>
    <item identifier="PLAIN" identifierref="RP"><title>Plain</title></item>
  </organization></organizations>
  <resources>
    <resource identifier="RW" type="webcontent" adlcp:scormType="sco" href="w.html"><file href="w.html"/></resource>
    <resource identifier="RR" type="webcontent" adlcp:scormType="sco" href="r.html"><file href="r.html"/></resource>
    <resource identifier="RP" type="webcontent" adlcp:scormType="sco" href="p.html"><file href="p.html"/></resource>
  </resources>
</manifest>`;
  return zip([
    ['imsmanifest.xml', manifest],
    ['w.html', '<!doctype html><title>W</title>'],
    ['r.html', '<!doctype html><title>R</title>'],
    ['p.html', '<!doctype html><title>P</title>'],
  ]);
}

/**
 * SCORM 2004 4th edition shared data (docs/decisions/content-runs.md "Shared data"): the buckets an
 * item declares in the manifest (`adlcp:data`/`adlcp:map`) are `adl.data.n` of its SCO, with the
 * RTE's access rules and error codes; a value written by one SCO is read by another of the same
 * learner, in the package's scope (the organization's by default, the learner's run of the package
 * when sharedDataGlobalToSystem is false); another learner sees nothing, and the database refuses
 * a bucket tied to another organization's learner, lesson progress or package.
 */
describe('SCORM 2004 shared data (adl.data)', () => {
  const world = contentRunsWorld();
  let t: TestApp;
  let zips: ContentRunsWorld['zips'];
  beforeAll(() => ({ t, zips } = world));

  /** A session of `item` of the lesson for the learner, initialized. */
  const session = async (org: CreatedOrg, lessonId: string, learnerId: string, item: string) => {
    const res = await t.post(`/v1/lessons/${lessonId}/launches`, { user: { id: learnerId }, item }, { basic: org.api_key });
    expect(res.status).toBe(201);
    const s = await openLaunch(t, res.body.launch_url);
    expect(await rt(t, s, 'initialize')).toMatchObject({ value: 'true', error: 0 });
    return s;
  };
  const get = async (s: string, element: string) => {
    const r = await rt(t, s, 'get', { element });
    return r.error ? `error ${r.error}` : r.value;
  };
  const set = async (s: string, element: string, value: string) => {
    const r = await rt(t, s, 'set', { element, value });
    return r.error ? `error ${r.error}` : r.value;
  };
  /** Another course playing the package `pkgId`, its one lesson, the learner enrolled. */
  const courseFor = async (org: CreatedOrg, pkgId: string, learnerId: string) => {
    const key = { basic: org.api_key };
    const course = (await t.post('/v1/courses', { title: `Again ${Date.now()}`, short_description: 'S', enforce_sequential_navigation: false }, key)).body;
    const lesson = (await t.post('/v1/lessons', { course_id: course.id, order: 1, title: 'Again', type: 'WEB_PACKAGE', content_web_package_id: pkgId, optional: false }, key)).body;
    const pc = (await t.post(`/v1/domains/${org.domain_name}/published-courses`, { course: { id: course.id }, slug: `a-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}` }, key))
      .body;
    await journey(t, org).enroll(learnerId, pc.id);
    return lesson.id as string;
  };

  it('two SCOs share a bucket: _count, ids, read-only / write-only, not initialized, out of range, the 64,000 limit; another learner sees nothing', async () => {
    const org = await t.newOrg();
    const c = await webPackageCourse(t, org, zips.host('shared-local.zip', await sharedDataPackage(false)));

    const w = await session(org, c.lessonId, c.learner.id, 'WRITER');
    expect(await get(w, 'adl.data._children')).toBe('id,store');
    expect(await get(w, 'adl.data._count')).toBe('2');
    expect(await get(w, 'adl.data.0.id')).toBe(NOTES);
    expect(await get(w, 'adl.data.1.id')).toBe(SCORES);
    // nothing written yet: not initialized (403)
    expect(await get(w, 'adl.data.0.store')).toBe('error 403');
    expect(await set(w, 'adl.data.0.store', 'first notes')).toBe('true');
    expect(await get(w, 'adl.data.0.store')).toBe('first notes');
    // readSharedData false: write only (405 on read), writing is allowed
    expect(await get(w, 'adl.data.1.store')).toBe('error 405');
    expect(await set(w, 'adl.data.1.store', '42')).toBe('true');
    // the LMS's elements are read only (404); a bucket the SCO has not is 301 / 351; an unknown member 401
    expect(await set(w, 'adl.data.0.id', 'urn:other')).toBe('error 404');
    expect(await set(w, 'adl.data._count', '3')).toBe('error 404');
    expect(await set(w, 'adl.data._children', 'x')).toBe('error 404');
    expect(await get(w, 'adl.data.2.id')).toBe('error 301');
    expect(await get(w, 'adl.data.2.store')).toBe('error 301');
    expect(await set(w, 'adl.data.2.store', 'x')).toBe('error 351');
    expect(await get(w, 'adl.data.0.value')).toBe('error 401');
    // 64,000 characters are kept, one more is refused (406) and changes nothing
    const long = 'n'.repeat(64000);
    expect(await set(w, 'adl.data.0.store', long)).toBe('true');
    expect(await get(w, 'adl.data.0.store')).toBe(long);
    expect(await set(w, 'adl.data.0.store', `${long}n`)).toBe('error 406');
    expect(await get(w, 'adl.data.0.store')).toBe(long);
    expect(await set(w, 'adl.data.0.store', 'notes from the writer')).toBe('true');
    // the buckets are not the attempt's data model
    expect(JSON.stringify(await t.ds.query(`SELECT cmi FROM content_attempts WHERE organization_id = $1`, [orgUuid(org)]))).not.toContain('adl.data');
    expect(await rt(t, w, 'terminate')).toMatchObject({ value: 'true' });

    // the other SCO (its own attempt) reads what the first wrote; its maps are read only (the CAM's default)
    const r = await session(org, c.lessonId, c.learner.id, 'READER');
    expect(await get(r, 'adl.data._count')).toBe('2');
    expect(await get(r, 'adl.data.0.id')).toBe(NOTES);
    expect(await get(r, 'adl.data.0.store')).toBe('notes from the writer');
    expect(await get(r, 'adl.data.1.store')).toBe('42');
    expect(await set(r, 'adl.data.0.store', 'overwritten')).toBe('error 404');
    expect(await get(r, 'adl.data.0.store')).toBe('notes from the writer');

    // a SCO that declares no bucket: none
    const p = await session(org, c.lessonId, c.learner.id, 'PLAIN');
    expect(await get(p, 'adl.data._count')).toBe('0');
    expect(await get(p, 'adl.data.0.id')).toBe('error 301');
    expect(await set(p, 'adl.data.0.store', 'x')).toBe('error 351');

    // kept once per learner and bucket, in this run of the package (sharedDataGlobalToSystem false)
    const rows = await t.ds.query(`SELECT target_id, value, lesson_progress_id IS NOT NULL AS local, web_package_id FROM content_shared_data WHERE organization_id = $1 ORDER BY target_id`, [
      orgUuid(org),
    ]);
    expect(rows).toEqual([
      { target_id: NOTES, value: 'notes from the writer', local: true, web_package_id: decodeId('webPackage', c.pkg.id) },
      { target_id: SCORES, value: '42', local: true, web_package_id: decodeId('webPackage', c.pkg.id) },
    ]);

    // another learner of the same lesson: nothing written for them
    const other = await c.journey.learner();
    await c.journey.enroll(other.id, c.publishedCourseId);
    const o = await session(org, c.lessonId, other.id, 'READER');
    expect(await get(o, 'adl.data.0.store')).toBe('error 403');
    expect(await get(o, 'adl.data.1.store')).toBe('error 403');

    // the same learner, the same package in another lesson: another run of the package, its own buckets
    const again = await session(org, await courseFor(org, c.pkg.id, c.learner.id), c.learner.id, 'READER');
    expect(await get(again, 'adl.data.0.store')).toBe('error 403');
  });

  it('global to the system (the default): the learner sees the bucket from another package naming the same targetID; the session of the SCO sees a write at once', async () => {
    const org = await t.newOrg();
    const c = await webPackageCourse(t, org, zips.host('shared-global-1.zip', await sharedDataPackage()));
    const w = await session(org, c.lessonId, c.learner.id, 'WRITER');
    const r = await session(org, c.lessonId, c.learner.id, 'READER');
    expect(await get(r, 'adl.data.0.store')).toBe('error 403');
    expect(await set(w, 'adl.data.0.store', 'global notes')).toBe('true');
    // an open session of another SCO reads the new value on its next GetValue
    expect(await get(r, 'adl.data.0.store')).toBe('global notes');
    expect(await t.ds.query(`SELECT lesson_progress_id, web_package_id, target_id FROM content_shared_data WHERE organization_id = $1`, [orgUuid(org)])).toEqual([
      { lesson_progress_id: null, web_package_id: null, target_id: NOTES },
    ]);

    // another package of the organization, the same learner enrolled in its course
    const d = await webPackageCourse(t, org, zips.host('shared-global-2.zip', await sharedDataPackage()));
    const lessonId = await courseFor(org, d.pkg.id, c.learner.id);
    const r2 = await session(org, lessonId, c.learner.id, 'READER');
    expect(await get(r2, 'adl.data.0.store')).toBe('global notes');
    // ... and that package's own learner has nothing
    const r3 = await session(org, d.lessonId, d.learner.id, 'READER');
    expect(await get(r3, 'adl.data.0.store')).toBe('error 403');
  });

  it('the database refuses a bucket tied to another organization (learner, lesson progress, package)', async () => {
    const world = async () => {
      const org = await t.newOrg();
      const c = await webPackageCourse(t, org, zips.host(`shared-wall-${Date.now()}.zip`, await sharedDataPackage(false)));
      await session(org, c.lessonId, c.learner.id, 'WRITER');
      const [lp] = await t.ds.query(`SELECT lesson_progress_id FROM content_attempts WHERE organization_id = $1`, [orgUuid(org)]);
      return { org: orgUuid(org), user: decodeId('student', c.learner.id)!, lp: lp.lesson_progress_id as string, pkg: decodeId('webPackage', c.pkg.id)! };
    };
    const a = await world();
    const b = await world();
    class Rollback extends Error {}
    const attempt = async (params: unknown[]) => {
      try {
        await t.ds.transaction(async (m) => {
          await m.query(`INSERT INTO content_shared_data (organization_id, user_id, lesson_progress_id, web_package_id, target_id, value) VALUES ($1, $2, $3, $4, 'urn:wall', 'v')`, params);
          throw new Rollback();
        });
      } catch (e: any) {
        if (e instanceof Rollback) return null;
        return { code: e.code ?? e.driverError?.code, constraint: e.constraint ?? e.driverError?.constraint };
      }
      throw new Error('unreachable');
    };
    expect(await attempt([a.org, a.user, a.lp, a.pkg])).toBeNull();
    expect(await attempt([a.org, a.user, null, null])).toBeNull();
    expect(await attempt([a.org, b.user, null, null])).toEqual({ code: '23503', constraint: 'content_shared_data_user_id_fkey' });
    expect(await attempt([a.org, a.user, b.lp, a.pkg])).toEqual({ code: '23503', constraint: 'content_shared_data_lesson_progress_id_fkey' });
    expect(await attempt([a.org, a.user, a.lp, b.pkg])).toEqual({ code: '23503', constraint: 'content_shared_data_web_package_id_fkey' });
    expect(await attempt([b.org, a.user, null, null])).toEqual({ code: '23503', constraint: 'content_shared_data_user_id_fkey' });
    // a scope is both or neither
    expect(await attempt([a.org, a.user, a.lp, null])).toMatchObject({ code: '23514' });
  });
});
