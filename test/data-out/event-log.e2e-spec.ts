import { decodeId } from '../../src/core/ids/ids';
import { CleanupService } from '../../src/modules/maintenance/cleanup.service';
import { LEARNER_SYNC_EVENT_TYPES as SYNC_EVENT_TYPES } from '../../src/modules/data-out/events.v2.controller';
import { startTestApp, TestApp } from '../support/app';
import { orgUuid, v2Pages } from '../support/fixtures';
import { fixtures } from '../enrollments/v2-enrollments.helpers';

/**
 * The event log's sync events (CONVENTIONS §20; docs/decisions/data-out.md): every type
 * (`user.updated`, `user.deactivated`, `user.deleted`, `enrollment.updated`, `enrollment.deleted`,
 * `progress.updated`, `progress.deleted`) for users, enrollments and course progress, each with the
 * body a webhook delivery of it would carry (the outbox payload: id, event_type, timestamp, then the
 * objects), and 30 days of them: an older event leaves the log and the maintenance clean-up deletes it.
 */
jest.setTimeout(120_000);

describe('the event log: sync events and their 30 days', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('writes every sync event type with the body a webhook would carry', async () => {
    const o = await t.newOrg();
    const tok = await t.tokenFor(o);
    const g = fixtures(t, o, tok);
    const m = await g.member();
    const c = await g.course();
    const enrollment = await g.enroll(c.publishedCourseId, m.email);
    await g.lesson(m.id, c.publishedCourseId, c.lessonIds[0], { finished_at: new Date().toISOString() }); // progress.updated (created, completed)
    expect((await t.patch(`/v1/users/${m.id}`, { last_name: 'Byron' }, g.key)).status).toBe(200); // user.updated
    expect((await t.patch('/v2/enrollments/', { data: [{ type: 'enrollments', id: enrollment, attributes: { active: false } }] }, { token: tok })).status).toBe(200); // enrollment.updated
    expect((await t.delete(`/v2/students/${m.id}`, { token: tok })).status).toBeLessThan(300); // user.deactivated
    // no operation of either interface hard-deletes a progress row, an enrollment or a user (docs/decisions/data-out.md): an erasure would, made here by SQL
    const [progressRows] = await t.ds.query(`DELETE FROM course_progress WHERE organization_id = $1 AND user_id = $2 RETURNING id`, [orgUuid(o), decodeId('student', m.id)]);
    expect(progressRows).toHaveLength(1);
    await t.ds.query(`DELETE FROM enrollments WHERE organization_id = $1 AND id = $2`, [orgUuid(o), decodeId('enrollment', enrollment)]);
    const lone = await g.student();
    await t.ds.query(`DELETE FROM users WHERE organization_id = $1 AND id = $2`, [orgUuid(o), decodeId('student', lone.id)]);

    const events = await v2Pages(t, `/v2/events/?filter[type]=${SYNC_EVENT_TYPES.join(',')}&page[size]=3`, tok);
    expect(new Set(events.map((e) => e.attributes.event_type))).toEqual(new Set(SYNC_EVENT_TYPES));
    const payloads = new Map<string, unknown>(
      (await t.ds.query(`SELECT payload FROM outbox_events WHERE organization_id = $1 AND event_type = ANY($2::text[])`, [orgUuid(o), SYNC_EVENT_TYPES])).map((r: any) => [r.payload.id, r.payload]),
    );
    expect(payloads.size).toBe(events.length);
    for (const e of events) {
      const body = e.attributes.body;
      // exactly what the outbox holds (a webhook delivery's body), its id the event's, its timestamp the event's time
      expect(body).toEqual(payloads.get(e.id));
      expect(Object.keys(body).slice(0, 3)).toEqual(['id', 'event_type', 'timestamp']);
      expect([body.id, body.event_type, body.timestamp]).toEqual([e.id, e.attributes.event_type, e.attributes.created_at]);
      expect(body.user.id).toBe(e.attributes.event_type === 'user.deleted' ? lone.id : m.id);
    }
    const of = (type: string) => events.filter((e) => e.attributes.event_type === type).map((e) => e.attributes.body);
    expect(of('user.updated').some((b) => b.user.last_name === 'Byron' && b.user.is_active === true)).toBe(true);
    expect(of('user.deactivated')[0].user).toMatchObject({ id: m.id, is_active: false });
    expect(of('user.deleted')).toEqual([expect.objectContaining({ user: { id: lone.id } })]);
    expect(of('enrollment.updated').some((b) => b.enrollment.id === enrollment && b.enrollment.active === false)).toBe(true);
    expect(of('enrollment.deleted')[0].enrollment).toMatchObject({ id: enrollment, user_id: m.id, published_course_id: c.publishedCourseId });
    const progress = of('progress.updated');
    expect(progress[progress.length - 1].progress).toMatchObject({ user_id: m.id, course_id: c.courseId, published_course_id: c.publishedCourseId });
    expect(progress[progress.length - 1].progress.completed_at).not.toBeNull();
    expect(of('progress.deleted')[0].progress.id).toBe(progress[0].progress.id);
    expect(decodeId('courseProgress', progress[0].progress.id)).toBe(progressRows[0].id);
  });

  it('keeps 30 days: an older event leaves the log, and the clean-up job deletes it', async () => {
    const o = await t.newOrg();
    const tok = await t.tokenFor(o);
    const g = fixtures(t, o, tok);
    const s = await g.student();
    for (const name of ['Old', 'Kept', 'New']) {
      expect((await t.patch('/v2/students/', { data: [{ type: 'students', id: s.id, attributes: { last_name: name } }] }, { token: tok })).status).toBe(200);
    }
    const rows: { id: string; name: string }[] = await t.ds.query(
      `SELECT id, payload->'user'->>'last_name' AS name FROM outbox_events WHERE organization_id = $1 AND event_type = 'user.updated' ORDER BY seq`,
      [orgUuid(o)],
    );
    expect(rows.map((r) => r.name)).toEqual(['Old', 'Kept', 'New']);
    // sync events are born relayed: their age is both when they were made and when they were relayed
    const age = (id: string, days: number) =>
      t.ds.query(`UPDATE outbox_events SET created_at = now() - make_interval(days => $3), relayed_at = now() - make_interval(days => $3) WHERE organization_id = $1 AND id = $2`, [
        orgUuid(o),
        id,
        days,
      ]);
    await age(rows[0].id, 31);
    await age(rows[1].id, 29);
    const names = async () => (await v2Pages(t, '/v2/events/?filter[type]=user.updated', tok)).map((e) => e.attributes.body.user.last_name);
    expect(await names()).toEqual(['Kept', 'New']);
    const old = (await t.ds.query(`SELECT payload->>'id' AS id FROM outbox_events WHERE id = $1`, [rows[0].id]))[0].id;
    expect((await t.get(`/v2/events/${old}`, { token: tok })).status).toBe(404);

    await new CleanupService(t.ds, t.config).run({ batchSize: 100 });
    const left = (await t.ds.query(`SELECT id FROM outbox_events WHERE organization_id = $1 AND event_type = 'user.updated'`, [orgUuid(o)])).map((r: any) => r.id).sort();
    expect(left).toEqual([rows[1].id, rows[2].id].sort());
    expect(await names()).toEqual(['Kept', 'New']);
  });
});
