import { Client } from 'pg';
import type { QueryRunner } from 'typeorm';
import { LiveTrainingMailPerMeeting1763700025500 } from '../../migrations/1763700025500-live-training-mail-per-meeting';
import type { CreatedOrg } from '../../src/modules/organizations/organizations.service';
import { startTestApp, TestApp } from '../support/app';
import { BuiltCourse, journey } from '../support/learner-journey';

/**
 * Migration 1763700025500 (issue 25 item 10): pending live-training mails of the earlier form (a
 * session's every meeting in one message) become one record per meeting, a pending cancellation
 * taking each meeting's next SEQUENCE; done records stay as they are; down and up again.
 */
describe('migration: live-training mails per meeting', () => {
  let t: TestApp;
  let owner: Client;
  let org: CreatedOrg;
  let course: BuiltCourse;
  const runner = () => ({ query: async (sql: string, params?: unknown[]) => (await owner.query(sql, params)).rows }) as unknown as QueryRunner;

  beforeAll(async () => {
    t = await startTestApp();
    owner = new Client({ connectionString: t.config.DATABASE_URL });
    await owner.connect();
    org = await t.newOrg();
    course = await journey(t, org).course([{ type: 'VILT', title: 'Live' }]);
  });
  afterAll(async () => {
    await owner?.end();
    await t?.close();
  });

  it('turns pending records of the earlier form into one per meeting', async () => {
    const key = { basic: org.api_key };
    const j = journey(t, org);
    const m = await t.post('/v1/ilt-multi-session-events', { lesson: course.lessonIds[0], display_name: 'Series' }, key);
    const mk = (name: string, day: string) =>
      t.post(
        '/v1/ilt-sessions',
        { instructor_email: 'i@example.test', multi_session_event: m.body.id, display_name: name, starts_at: `2027-06-${day}T10:00:00Z`, ends_at: `2027-06-${day}T11:00:00Z`, timezone: 'UTC' },
        key,
      );
    expect((await mk('One', '01')).status).toBe(201);
    expect((await mk('Two', '02')).status).toBe(201);
    const [a, b, c] = [await j.learner(), await j.learner(), await j.learner()];
    const orgId = (await owner.query(`SELECT organization_id FROM vilt_sessions WHERE is_multi_session LIMIT 1`)).rows[0].organization_id;
    const session = (await owner.query(`SELECT id FROM vilt_sessions WHERE is_multi_session AND organization_id = $1`, [orgId])).rows[0].id;
    const user = async (email: string) => (await owner.query(`SELECT id FROM users WHERE email = $1`, [email])).rows[0].id as string;

    await new LiveTrainingMailPerMeeting1763700025500().down(runner());
    await owner.query(`UPDATE vilt_session_events SET sequence = 3 WHERE session_id = $1`, [session]);
    await owner.query(
      `INSERT INTO vilt_session_mails (organization_id, session_id, user_id, method, done_at) VALUES ($1, $2, $3, 'REQUEST', NULL), ($1, $2, $4, 'CANCEL', NULL), ($1, $2, $5, 'REQUEST', now())`,
      [orgId, session, await user(a.email), await user(b.email), await user(c.email)],
    );
    await new LiveTrainingMailPerMeeting1763700025500().up(runner());

    const rows = (
      await owner.query(
        `SELECT u.email, m.method, e.display_name AS meeting, m.sequence, m.done_at IS NOT NULL AS done FROM vilt_session_mails m
           JOIN users u ON u.id = m.user_id LEFT JOIN vilt_session_events e ON e.id = m.event_id WHERE m.session_id = $1 ORDER BY u.email, e.display_name`,
        [session],
      )
    ).rows;
    const of = (email: string) => rows.filter((r) => r.email === email).map(({ method, meeting, sequence, done }) => ({ method, meeting, sequence, done }));
    // the pending cancellation took each meeting's next number; the invitation carries it too (it is the meeting's now)
    expect(of(a.email)).toEqual([
      { method: 'REQUEST', meeting: 'One', sequence: 4, done: false },
      { method: 'REQUEST', meeting: 'Two', sequence: 4, done: false },
    ]);
    expect(of(b.email)).toEqual([
      { method: 'CANCEL', meeting: 'One', sequence: 4, done: false },
      { method: 'CANCEL', meeting: 'Two', sequence: 4, done: false },
    ]);
    // a record already sent stays as it was
    expect(of(c.email)).toEqual([{ method: 'REQUEST', meeting: null, sequence: null, done: true }]);
    expect((await owner.query(`SELECT sequence FROM vilt_session_events WHERE session_id = $1`, [session])).rows.map((r) => r.sequence)).toEqual([4, 4]);
  });
});
