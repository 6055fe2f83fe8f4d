import { INestApplicationContext } from '@nestjs/common';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { decodeId } from '../../src/core/ids/ids';
import { createWorker } from '../../src/worker';
import { startTestApp, TestApp } from '../support/app';
import { waitFor } from '../support/eventually';
import { orgUuid, v2Pages } from '../support/fixtures';
import { dropRedisPrefix } from '../support/webhook-receiver';
import { fixtures } from '../enrollments/v2-enrollments.helpers';

/**
 * The "done when" of issue 32 (CONVENTIONS §20): a client mirrors an organization (users,
 * enrollments, course progress, lesson progress) by ONE full export of each, then keeps it current
 * with `filter[updated_since]` polls (students, enrollments, lesson progress) and the event log
 * (progress.updated and the *.deleted events; a deleted course progress takes its lessons' progress
 * with it), through a run of creates, updates, deactivations and deletes; it ends with exactly the
 * server's data, which a fresh export of each resource shows.
 */
jest.setTimeout(180_000);

type Rec = Record<string, unknown>;
const USER = ['id', 'email', 'first_name', 'last_name', 'is_active'];
const ENROLLMENT = ['id', 'user_id', 'published_course_id', 'active', 'completed_at'];
const PROGRESS = ['id', 'user_id', 'course_id', 'published_course_id', 'completed_at', 'success_status', 'score'];
const LESSON = ['id', 'user_id', 'lesson_id', 'view_count', 'completed_at'];
// /v2/lesson-progress writes its times to the second, the export to the millisecond: the mirror keeps seconds
const toSecond = (v: unknown) => (v == null ? null : String(v).replace(/\.\d+Z$/, 'Z'));
const lessonRow = (r: Rec): Rec => ({ ...pick(r, LESSON), completed_at: toSecond(r.completed_at) });
const pick = (r: Rec, keys: string[]) => Object.fromEntries(keys.map((k) => [k, r[k] ?? null]));
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('mirroring an organization: one export, then updated_since polls and the event log', () => {
  let t: TestApp;
  let worker: INestApplicationContext;
  const storage = mkdtempSync(path.join(tmpdir(), 'mirror-'));

  beforeAll(async () => {
    t = await startTestApp({ STORAGE_DIR: storage });
    worker = await createWorker(t.config);
    await worker.init();
  });
  afterAll(async () => {
    await worker?.close();
    await t.close();
    await dropRedisPrefix(t.config.REDIS_URL, t.config.REDIS_PREFIX);
    rmSync(storage, { recursive: true, force: true });
  });

  /** A full export of `resource` as NDJSON records (through the worker and the signed download URL). */
  async function exportOf(resource: string, tok: string): Promise<Rec[]> {
    const created = await t.post('/v2/exports/', { resource, format: 'ndjson' }, { token: tok });
    expect(created.status).toBe(202);
    const done = await waitFor(
      async () => {
        const a = (await t.get(`/v2/exports/${created.body.data.id}`, { token: tok })).body.data.attributes;
        return a.state === 'SUCCEEDED' && a;
      },
      { timeoutMs: 60_000, intervalMs: 100, what: `the ${resource} export` },
    );
    const text = await (await fetch(done.download_url)).text();
    return text
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l));
  }

  it('ends with exactly the server data after creates, updates, deactivations and deletes', async () => {
    const o = await t.newOrg();
    const tok = await t.tokenFor(o);
    const g = fixtures(t, o, tok);
    const c1 = await g.course({ lessons: [{}, {}] });
    const c2 = await g.course({ lessons: [{}] });
    const members = [await g.member(), await g.member(), await g.member()];
    const enrollments = [await g.enroll(c1.publishedCourseId, members[0].email), await g.enroll(c1.publishedCourseId, members[1].email), await g.enroll(c2.publishedCourseId, members[0].email)];
    await g.lesson(members[0].id, c1.publishedCourseId, c1.lessonIds[0], { finished_at: new Date().toISOString() });
    await g.lesson(members[0].id, c2.publishedCourseId, c2.lessonIds[0], { view_count: 2 }); // its course progress is deleted below

    // ---- the client: one full export of each resource
    const since = new Date(Date.now() - 1000).toISOString(); // a margin for writes in flight
    const mirror = {
      users: new Map((await exportOf('users', tok)).map((r) => [r.id as string, pick(r, USER)])),
      enrollments: new Map((await exportOf('enrollments', tok)).map((r) => [r.id as string, pick(r, ENROLLMENT)])),
      progress: new Map((await exportOf('course-progress', tok)).map((r) => [r.id as string, pick(r, PROGRESS)])),
      lessons: new Map((await exportOf('lesson-progress', tok)).map((r) => [r.id as string, lessonRow(r)])),
    };
    // where each lesson progress belongs (a course progress deleted takes its lessons' progress along):
    // the export names the course progress, the list its learner and published course
    const lessonOf = new Map<string, { progress?: string; user?: string; published?: string }>();
    for (const r of await exportOf('lesson-progress', tok)) lessonOf.set(r.id as string, { progress: r.course_progress_id as string });
    expect(mirror.users.size).toBe(3);
    expect(mirror.enrollments.size).toBe(3);
    expect(mirror.progress.size).toBeGreaterThanOrEqual(2);
    expect(mirror.lessons.size).toBe(2);

    // ---- the server changes: creates, updates, deactivations, deletes
    await pause(5);
    const created = await t.post('/v2/students/', { data: [{ type: 'students', attributes: { email: 'new-one@example.test', first_name: 'New', last_name: 'One' } }] }, { token: tok });
    expect(created.status).toBe(200);
    const newbie = await g.member();
    const e4 = await g.enroll(c2.publishedCourseId, newbie.email);
    expect((await t.patch(`/v1/users/${members[1].id}`, { first_name: 'Renamed', email: 'renamed@example.test' }, g.key)).status).toBe(200);
    expect((await t.delete(`/v2/students/${members[2].id}`, { token: tok })).status).toBeLessThan(300); // deactivation
    expect((await t.patch('/v2/enrollments/', { data: [{ type: 'enrollments', id: enrollments[1], attributes: { active: false } }] }, { token: tok })).status).toBe(200);
    expect((await g.complete([{ id: enrollments[2], completed_at: new Date().toISOString() }])).status).toBe(200);
    await g.lesson(members[0].id, c1.publishedCourseId, c1.lessonIds[1], { finished_at: new Date().toISOString() }); // completes c1 for member 0
    await g.lesson(newbie.id, c2.publishedCourseId, c2.lessonIds[0], { view_count: 1 });
    // no operation of either interface removes an enrollment or a progress row today (they are
    // deactivated, or their completion removed); a hard delete, as an erasure or a clean-up would
    // make it, is made here by SQL to show that the event log carries it (enrollment.deleted, progress.deleted)
    await t.ds.query(`DELETE FROM enrollments WHERE id = $1 AND organization_id = $2`, [decodeId('enrollment', enrollments[0]), orgUuid(o)]);
    const gone = await t.ds.query(`DELETE FROM course_progress WHERE organization_id = $1 AND user_id = $2 AND published_course_id = $3 RETURNING id`, [
      orgUuid(o),
      decodeId('student', members[0].id),
      decodeId('publishedCourse', c2.publishedCourseId),
    ]);
    expect(gone[0]).toHaveLength(1);

    // ---- the client syncs: updated_since polls, then the event log for progress and deletions
    for (const s of await v2Pages(t, `/v2/students/?filter[updated_since]=${encodeURIComponent(since)}&page[size]=2`, tok)) {
      const a = s.attributes;
      mirror.users.set(s.id, { id: s.id, email: a.email, first_name: a.first_name, last_name: a.last_name, is_active: !a.is_inactive });
    }
    for (const e of await v2Pages(t, `/v2/enrollments/?filter[updated_since]=${encodeURIComponent(since)}&page[size]=2`, tok)) {
      mirror.enrollments.set(e.id, {
        id: e.id,
        user_id: e.relationships.student.data.id,
        published_course_id: e.relationships['published-course'].data.id,
        active: e.attributes.active,
        completed_at: e.attributes.completed_at,
      });
    }
    for (const l of await v2Pages(t, `/v2/lesson-progress/?filter[updated_since]=${encodeURIComponent(since)}&page[size]=2`, tok)) {
      const a = l.attributes;
      mirror.lessons.set(l.id, lessonRow({ id: l.id, user_id: a.student_id, lesson_id: a.lesson_id, view_count: a.views, completed_at: a.completed_at }));
      lessonOf.set(l.id, { ...lessonOf.get(l.id), user: a.student_id, published: a.published_course_id });
    }
    const events = await v2Pages(t, `/v2/events/?filter[created_gte]=${encodeURIComponent(since)}&filter[type]=progress.updated,progress.deleted,enrollment.deleted,user.deleted&page[size]=3`, tok);
    for (const ev of events) {
      const body = ev.attributes.body;
      if (ev.attributes.event_type === 'progress.updated') mirror.progress.set(body.progress.id, pick(body.progress, PROGRESS));
      if (ev.attributes.event_type === 'progress.deleted') {
        mirror.progress.delete(body.progress.id);
        for (const [id, of] of lessonOf) {
          if (of.progress === body.progress.id || (of.user === body.progress.user_id && of.published === body.progress.published_course_id)) mirror.lessons.delete(id);
        }
      }
      if (ev.attributes.event_type === 'enrollment.deleted') mirror.enrollments.delete(body.enrollment.id);
      if (ev.attributes.event_type === 'user.deleted') mirror.users.delete(body.user.id);
    }
    expect(events.map((e) => e.attributes.event_type)).toEqual(expect.arrayContaining(['progress.updated', 'progress.deleted', 'enrollment.deleted']));

    // ---- exactly the server's data
    const truth = {
      users: (await exportOf('users', tok)).map((r) => pick(r, USER)),
      enrollments: (await exportOf('enrollments', tok)).map((r) => pick(r, ENROLLMENT)),
      progress: (await exportOf('course-progress', tok)).map((r) => pick(r, PROGRESS)),
      lessons: (await exportOf('lesson-progress', tok)).map(lessonRow),
    };
    const byId = (a: Rec[]) => [...a].sort((x, y) => String(x.id).localeCompare(String(y.id)));
    expect(byId([...mirror.users.values()])).toEqual(byId(truth.users));
    expect(byId([...mirror.enrollments.values()])).toEqual(byId(truth.enrollments));
    expect(byId([...mirror.progress.values()])).toEqual(byId(truth.progress));
    expect(byId([...mirror.lessons.values()])).toEqual(byId(truth.lessons));
    // and the run really changed what the mirror holds
    expect(truth.users).toHaveLength(5);
    expect(truth.users.find((u) => u.id === members[2].id)).toMatchObject({ is_active: false });
    expect(truth.users.find((u) => u.id === members[1].id)).toMatchObject({ first_name: 'Renamed', email: 'renamed@example.test' });
    expect(truth.enrollments.map((e) => e.id).sort()).toEqual([enrollments[1], enrollments[2], e4].sort());
    expect(truth.enrollments.find((e) => e.id === enrollments[1])).toMatchObject({ active: false });
    expect(truth.enrollments.find((e) => e.id === enrollments[2])!.completed_at).not.toBeNull();
    expect(truth.progress.some((p) => p.user_id === newbie.id)).toBe(true);
    // lesson progress: member 0's second lesson of c1 and newbie's view are new, member 0's c2 lesson went with its course progress
    expect(truth.lessons).toHaveLength(3);
    expect(
      truth.lessons
        .filter((l) => l.user_id === members[0].id)
        .map((l) => l.lesson_id)
        .sort(),
    ).toEqual([...c1.lessonIds].sort());
    expect(truth.lessons.find((l) => l.user_id === newbie.id)).toMatchObject({ lesson_id: c2.lessonIds[0], completed_at: null });
    expect(truth.progress.some((p) => p.user_id === members[0].id && p.published_course_id === c1.publishedCourseId && p.completed_at !== null)).toBe(true);
  });
  it('mirrors a resource beyond the learners (groups): a full list, then filter[updated_since] and group.deleted', async () => {
    const o = await t.newOrg();
    const tok = await t.tokenFor(o);
    const make = async (name: string) => {
      const r = await t.post('/v2/groups/', { data: [{ type: 'groups', attributes: { name } }] }, { token: tok });
      expect(r.status).toBe(200);
      return r.body.data[0].id as string;
    };
    const [kept, renamed, removed] = [await make('Kept'), await make('Renamed'), await make('Removed')];
    const row = (g: Rec) => ({ id: g.id, name: (g.attributes as Rec).name });
    const mirror = new Map((await v2Pages(t, '/v2/groups/?page[size]=2', tok)).map((g) => [g.id as string, row(g)]));
    expect([...mirror.keys()].sort()).toEqual([kept, renamed, removed].sort());

    const since = new Date(Date.now() - 1000).toISOString();
    await pause(5);
    const added = await make('Added');
    expect((await t.patch('/v2/groups/', { data: [{ type: 'groups', id: renamed, attributes: { name: 'Now renamed' } }] }, { token: tok })).status).toBe(200);
    expect((await t.request('DELETE', '/v2/groups/', { token: tok, body: { data: [{ type: 'groups', id: removed }] } })).status).toBeLessThan(300);

    for (const g of await v2Pages(t, `/v2/groups/?filter[updated_since]=${encodeURIComponent(since)}&page[size]=2`, tok)) mirror.set(g.id, row(g));
    for (const ev of await v2Pages(t, `/v2/events/?filter[created_gte]=${encodeURIComponent(since)}&filter[type]=group.deleted`, tok)) mirror.delete(ev.attributes.body.group.id);

    const truth = (await v2Pages(t, '/v2/groups/?page[size]=2', tok)).map(row);
    const byId = (a: Rec[]) => [...a].sort((x, y) => String(x.id).localeCompare(String(y.id)));
    expect(byId([...mirror.values()])).toEqual(byId(truth));
    expect(truth.map((g) => g.id).sort()).toEqual([kept, renamed, added].sort());
    expect(truth.find((g) => g.id === renamed)).toMatchObject({ name: 'Now renamed' });
  });
});
