import { DataSource } from 'typeorm';
import { decodeId, encodeId, newUuid } from '../../src/core/ids/ids';
import type { CreatedOrg } from '../../src/modules/organizations/organizations.service';
import { addCycles } from '../../src/modules/reenrollment/cycle';
import { ReenrollmentRunner } from '../../src/modules/reenrollment/reenrollment.runner';
import { startTestApp, TestApp } from '../support/app';
import { waitFor } from '../support/eventually';
import { spawnWorker, WorkerProcess } from '../support/worker-process';

/**
 * Re-enrollment rules (issue 29 point 2, CONVENTIONS §17): the five /v1 operations and their rules,
 * and the worker that runs them: a run happens once with two worker processes and across a worker
 * restart, the ended cycle is kept in the progress history, the certificate keeps its own expiry, and
 * next_run_at moves on by the cycle (calendar months).
 *
 * The rule's start must be in the future, so the test moves a rule's time into the past with the
 * owner's connection (the one statement that stands in for waiting an hour); everything else goes
 * through the API and the real worker processes.
 */
jest.setTimeout(120_000);

const rnd = () => newUuid().slice(0, 8);
const nextHour = () => {
  const d = new Date(Date.now() + 2 * 3_600_000);
  d.setUTCMinutes(0, 0, 0);
  return d.toISOString();
};

describe('re-enrollment rules', () => {
  let t: TestApp;
  let org: CreatedOrg;
  let other: CreatedOrg;
  const key = () => ({ basic: org.api_key });
  const R = (pc: string, o = org) => `/v1/domains/${o.domain_name}/published-courses/${pc}/reenrollment_rule`;

  beforeAll(async () => {
    t = await startTestApp();
    org = await t.newOrg();
    other = await t.newOrg();
  });
  afterAll(() => t?.close());

  async function publishedCourse(o = org, extra: Record<string, unknown> = {}) {
    const course = (await t.post('/v1/courses', { title: `C ${rnd()}`, short_description: 's', enforce_sequential_navigation: false, ...extra }, { basic: o.api_key })).body.id as string;
    const lesson = (await t.post('/v1/lessons', { course_id: course, order: 1, title: 'Only lesson', type: 'HTML', content_html: '<p>x</p>' }, { basic: o.api_key })).body.id as string;
    const pc = await t.post(`/v1/domains/${o.domain_name}/published-courses`, { course: { id: course }, slug: `c-${rnd()}` }, { basic: o.api_key });
    expect(pc.status).toBe(201);
    return { course, lesson, pc: pc.body.id as string };
  }

  it('the five operations: create (200), read, PUT and PATCH partial, delete; starts_at in the future and on the hour', async () => {
    const { pc } = await publishedCourse();
    expect((await t.get(R(pc), key())).status).toBe(404);
    const past = new Date(Date.now() - 3_600_000);
    past.setUTCMinutes(0, 0, 0);
    const offHour = new Date(Date.parse(nextHour()) + 60_000).toISOString();
    for (const [body, member] of [
      [{ starts_at: past.toISOString(), cycle_duration: 1 }, 'starts_at'],
      [{ starts_at: offHour, cycle_duration: 1 }, 'starts_at'],
      [{ starts_at: 'soon', cycle_duration: 1 }, 'starts_at'],
      [{ starts_at: nextHour() }, 'cycle_duration'],
      [{ starts_at: nextHour(), cycle_duration: 0 }, 'cycle_duration'],
      [{ starts_at: nextHour(), cycle_duration: 1, cycle_duration_unit: 'YEARS' }, 'cycle_duration_unit'],
    ] as const) {
      const res = await t.post(R(pc), body, key());
      expect({ body, status: res.status, keys: Object.keys(res.body) }).toEqual({ body, status: 400, keys: [member] });
    }
    expect((await t.get(R(pc), key())).status).toBe(404);

    const starts = nextHour();
    const created = await t.post(R(pc), { starts_at: starts, cycle_duration: 12 }, key());
    expect(created.status).toBe(200);
    expect(created.body).toEqual({ id: expect.stringMatching(/^rer[0-9a-z]+$/), starts_at: starts, next_run_at: starts, cycle_duration: 12, cycle_duration_unit: 'MONTHS' });
    expect((await t.post(R(pc), { starts_at: starts, cycle_duration: 1 }, key())).status).toBe(400);
    expect((await t.get(R(pc), key())).body).toEqual(created.body);

    const put = await t.request('PUT', R(pc), { ...key(), body: { cycle_duration: 6 } });
    expect(put.status).toBe(200);
    expect(put.body).toEqual({ ...created.body, cycle_duration: 6 });
    const patch = await t.patch(R(pc), { cycle_duration_unit: 'DAYS' }, key());
    expect(patch.body).toEqual({ ...created.body, cycle_duration: 6, cycle_duration_unit: 'DAYS' });
    // next_run_at is read-only (ignored); a new starts_at is the next run
    const later = new Date(Date.parse(starts) + 24 * 3_600_000).toISOString();
    const moved = await t.patch(R(pc), { starts_at: later, next_run_at: '2030-01-01T00:00:00Z' }, key());
    expect(moved.body).toEqual({ ...patch.body, starts_at: later, next_run_at: later });
    expect((await t.patch(R(pc), { starts_at: past.toISOString() }, key())).status).toBe(400);
    expect((await t.get(R(pc), key())).body).toEqual(moved.body);

    // another organization, an unknown published course: 404 on every operation
    for (const [method, path, opts] of [
      ['GET', R(pc), { basic: other.api_key }],
      ['PATCH', R(pc), { basic: other.api_key, body: { cycle_duration: 2 } }],
      ['DELETE', R(pc), { basic: other.api_key }],
      ['POST', R(pc), { basic: other.api_key, body: { starts_at: starts, cycle_duration: 1 } }],
      ['GET', R(encodeId('publishedCourse', newUuid())), key()],
    ] as const) {
      expect({ method, path, status: (await t.request(method, path, opts as any)).status }).toEqual({ method, path, status: 404 });
    }
    expect((await t.delete(R(pc), key())).status).toBe(204);
    expect((await t.get(R(pc), key())).status).toBe(404);
    expect((await t.delete(R(pc), key())).status).toBe(404);
  });

  describe('the worker', () => {
    let workers: WorkerProcess[] = [];
    afterEach(async () => {
      await Promise.all(workers.map((w) => w.kill()));
      workers = [];
    });

    const count = async (sql: string, params: unknown[]) => Number((await t.ownerQuery(sql, params))[0].n);

    it('runs a due rule once with two worker processes and after a restart; history kept, certificate expiry kept, next_run_at moved by one calendar month', async () => {
      const { lesson, pc } = await publishedCourse(org, { issues_certificate: true, certificate_validity_days: 30 });
      const learners: string[] = [];
      for (let i = 0; i < 3; i++) {
        const u = (await t.post(`/v1/domains/${org.domain_name}/users`, { user: { email: `l${i}-${rnd()}@example.test`, first_name: 'L', last_name: `${i}` } }, key())).body.user.id as string;
        expect((await t.post(`/v1/domains/${org.domain_name}/published-courses/${pc}/enrollments`, { user: { id: u } }, key())).status).toBe(201);
        learners.push(u);
      }
      // two of the three complete the course (and get a certificate); the third has not finished
      for (const u of learners.slice(0, 2)) {
        const res = await t.patch(`/v1/users/${u}/published-courses/${pc}/lessons/${lesson}`, { lesson_progress: { completed_at: '2026-01-02T03:00:00Z', score: 9, max_score: 10 } }, key());
        expect(res.status).toBe(200);
      }
      const pcUuid = decodeId('publishedCourse', pc)!;
      const certsBefore = await t.ownerQuery(`SELECT id, expires_at, course_progress_id FROM certificates WHERE published_course_id = $1 ORDER BY id`, [pcUuid]);
      expect(certsBefore).toHaveLength(2);
      expect(certsBefore.every((c) => c.expires_at && c.course_progress_id)).toBe(true);

      const rule = (await t.post(R(pc), { starts_at: nextHour(), cycle_duration: 1, cycle_duration_unit: 'MONTHS' }, key())).body;
      // the rule's first run time has come (it started an hour ago, on the hour)
      const [{ at }] = await t.ownerQuery(`SELECT date_trunc('hour', now()) - interval '1 hour' AS at`);
      await t.ownerQuery(`UPDATE reenrollment_rules SET starts_at = $1, next_run_at = $1 WHERE id = $2`, [at, decodeId('reenrollmentRule', rule.id)]);

      const env = { REENROLLMENT_TICK_SECONDS: '1' };
      workers = [spawnWorker(t.config, env), spawnWorker(t.config, env)];
      const ruleUuid = decodeId('reenrollmentRule', rule.id)!;
      await workers[0].orReport(
        waitFor(async () => (await count(`SELECT count(*) AS n FROM reenrollment_runs WHERE rule_id = $1`, [ruleUuid])) > 0, { timeoutMs: 60_000, intervalMs: 200, what: 'the first run' }),
      );
      // several more ticks of both workers
      await new Promise((r) => setTimeout(r, 4000));
      const check = async () => {
        expect(await count(`SELECT count(*) AS n FROM reenrollment_runs WHERE rule_id = $1`, [ruleUuid])).toBe(1);
        const [run] = await t.ownerQuery(`SELECT scheduled_at, reset_count FROM reenrollment_runs WHERE rule_id = $1`, [ruleUuid]);
        expect([new Date(run.scheduled_at).toISOString(), run.reset_count]).toEqual([new Date(at).toISOString(), 2]);
        expect(await count(`SELECT count(*) AS n FROM course_progress_cycles WHERE published_course_id = $1`, [pcUuid])).toBe(2);
      };
      await check();

      // next_run_at: one calendar month after the run's time
      const read = (await t.get(R(pc), key())).body;
      expect(read.next_run_at).toBe(addCycles(new Date(at), 1, 'MONTHS').toISOString());

      // the two completions are reset (course, lessons, the enrollments' copy), their history kept; the third learner untouched
      for (const u of learners.slice(0, 2)) {
        const progress = (await t.get(`/v1/users/${u}/published-courses/${pc}`, key())).body;
        expect(progress.course_progress.completed_at).toBeNull();
        const lessonProgress = (await t.get(`/v1/users/${u}/published-courses/${pc}/lessons/${lesson}`, key())).body;
        expect(lessonProgress.lesson_progress).toEqual(expect.objectContaining({ completed_at: null }));
        const [h] = await t.ownerQuery(`SELECT completed_at, score, max_score, certificate_id, lessons FROM course_progress_cycles WHERE user_id = $1`, [decodeId('student', u)]);
        expect([new Date(h.completed_at).toISOString(), h.lessons.length, !!h.certificate_id]).toEqual(['2026-01-02T03:00:00.000Z', 1, true]);
        expect(h.lessons[0]).toEqual(expect.objectContaining({ completed_at: expect.stringMatching(/^2026-01-02T03:00:00/), score: 9, max_score: 10 }));
      }
      const [{ n: completedEnrollments }] = await t.ownerQuery(`SELECT count(*) AS n FROM enrollments WHERE published_course_id = $1 AND completed_at IS NOT NULL`, [pcUuid]);
      expect(Number(completedEnrollments)).toBe(0);
      expect(await count(`SELECT count(*) AS n FROM course_progress_cycles WHERE user_id = $1`, [decodeId('student', learners[2])])).toBe(0);
      // the certificates stay, with their own expiry, no longer the live progress's
      const certsAfter = await t.ownerQuery(`SELECT id, expires_at, course_progress_id FROM certificates WHERE published_course_id = $1 ORDER BY id`, [pcUuid]);
      expect(certsAfter.map((c) => [c.id, new Date(c.expires_at).toISOString(), c.course_progress_id])).toEqual(certsBefore.map((c) => [c.id, new Date(c.expires_at).toISOString(), null]));

      // a worker restart: both killed, one started again, several ticks: still one run
      await Promise.all(workers.map((w) => w.kill()));
      workers = [spawnWorker(t.config, env)];
      await new Promise((r) => setTimeout(r, 6000));
      await check();

      // the next cycle: learner 0 completes again, and the rule's next time comes: a second run resets only them
      await t.patch(`/v1/users/${learners[0]}/published-courses/${pc}/lessons/${lesson}`, { lesson_progress: { completed_at: new Date(Date.now() - 60_000).toISOString() } }, key());
      await t.ownerQuery(`UPDATE reenrollment_rules SET next_run_at = now() WHERE id = $1`, [ruleUuid]);
      await workers[0].orReport(
        waitFor(async () => (await count(`SELECT count(*) AS n FROM reenrollment_runs WHERE rule_id = $1`, [ruleUuid])) === 2, { timeoutMs: 30_000, intervalMs: 200, what: 'the second run' }),
      );
      expect(await count(`SELECT count(*) AS n FROM course_progress_cycles WHERE user_id = $1`, [decodeId('student', learners[0])])).toBe(2);
      expect(await count(`SELECT count(*) AS n FROM course_progress_cycles WHERE user_id = $1`, [decodeId('student', learners[1])])).toBe(1);
      // a new certificate for the new completion, the first one kept
      expect(await count(`SELECT count(*) AS n FROM certificates WHERE user_id = $1`, [decodeId('student', learners[0])])).toBe(2);
    });

    it('concurrent runs of one due rule: exactly one makes the run (row lock, re-check, unique run)', async () => {
      const { pc } = await publishedCourse();
      const rule = (await t.post(R(pc), { starts_at: nextHour(), cycle_duration: 3, cycle_duration_unit: 'DAYS' }, key())).body;
      const ruleUuid = decodeId('reenrollmentRule', rule.id)!;
      const [{ at }] = await t.ownerQuery(`SELECT date_trunc('hour', now()) - interval '2 hours' AS at`);
      await t.ownerQuery(`UPDATE reenrollment_rules SET starts_at = $1, next_run_at = $1 WHERE id = $2`, [at, ruleUuid]);
      // eight runners, each on its own connection pool, at once
      const pools: DataSource[] = [];
      try {
        for (let i = 0; i < 4; i++) pools.push(await new DataSource({ ...(t.ds.options as any), name: `race-${i}`, poolSize: 2 }).initialize());
        const results = await Promise.all(pools.flatMap((ds) => [new ReenrollmentRunner(ds).runOne(ruleUuid), new ReenrollmentRunner(ds).runOne(ruleUuid)]));
        expect(results.filter(Boolean)).toHaveLength(1);
      } finally {
        await Promise.all(pools.map((ds) => ds.destroy()));
      }
      expect(await count(`SELECT count(*) AS n FROM reenrollment_runs WHERE rule_id = $1`, [ruleUuid])).toBe(1);
      expect((await t.get(R(pc), key())).body.next_run_at).toBe(addCycles(new Date(at), 3, 'DAYS').toISOString());
    });
  });
});
