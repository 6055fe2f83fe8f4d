import { startTestApp, TestApp } from '../support/app';
import { countQueries, enroll, insertCourse, insertLesson, insertStudent, publishCourse } from '../support/fixtures';

/**
 * The enrollment read asks whether the enrollment's course has a graded lesson; on a large
 * organization (bench/scale.js) that check was a sequential scan of every lesson. The statements
 * the API really sends for a page and for one enrollment are EXPLAINed with sequential scans
 * disabled, on enough lessons for the planner to weigh them: the check must be served by lessons_org_course_graded_idx (migration 1763870000000),
 * not by a scan of the course's lessons filtered on their type.
 */
describe('enrollment reads: the graded-lesson check is served by its index', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('EXPLAIN of the list and the read uses lessons_org_course_graded_idx', async () => {
    const org = await t.newOrg();
    const token = await t.tokenFor(org, ['enrollments:read']);
    const graded = await insertCourse(t, org, { title: 'Graded course' });
    await insertLesson(t, org, graded.uuid, { type: 'HTML', order: 1 });
    await insertLesson(t, org, graded.uuid, { type: 'QUIZ', order: 2 });
    const plain = await insertCourse(t, org, { title: 'Plain course' });
    await insertLesson(t, org, plain.uuid, { type: 'HTML', order: 1 });
    // enough ungraded lessons, with planner statistics, for the plan to be the one a real organization gets
    for (let i = 0; i < 40; i++) {
      const c = await insertCourse(t, org);
      for (let k = 1; k <= 5; k++) await insertLesson(t, org, c.uuid, { type: 'HTML', order: k });
    }
    await t.ds.query('ANALYZE lessons');
    const s = await insertStudent(t, org);
    const e1 = await enroll(t, org, s.uuid, await publishCourse(t, org, graded.uuid));
    await enroll(t, org, s.uuid, await publishCourse(t, org, plain.uuid));

    for (const url of ['/v2/enrollments/', `/v2/enrollments/${e1.id}`]) {
      const run = await countQueries(() => t.get(url, { token }));
      expect(run.result.status).toBe(200);
      const i = run.statements.findIndex((q) => /FROM enrollments e\b/.test(q) && /'QUIZ', 'IE_EXAM'/.test(q));
      expect({ url, found: i >= 0 }).toEqual({ url, found: true });
      const qr = t.ds.createQueryRunner();
      try {
        await qr.query('SET enable_seqscan = off');
        const plan = (await qr.query(`EXPLAIN ${run.statements[i]}`, run.params[i])).map((r: Record<string, string>) => r['QUERY PLAN']).join('\n');
        expect({ url, seq: /Seq Scan on lessons\b/.test(plan) }).toEqual({ url, seq: false });
        expect({ url, usesIndex: plan.includes('lessons_org_course_graded_idx') }).toEqual({ url, usesIndex: true });
      } finally {
        await qr.query('RESET enable_seqscan');
        await qr.release();
      }
    }
  });
});
