import { startTestApp, TestApp } from '../support/app';
import { countQueries, insertCourse, insertLesson, insertStudent, issueCertificate, rate } from '../support/fixtures';

/**
 * Every /v2 list of this area is served by an index: the list statement the API really sends is
 * EXPLAINed with sequential scans disabled; a plan that still needs a Seq Scan has no usable index.
 */
describe('courses, lessons, ratings, certificates lists use indexes', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('EXPLAIN of each list statement has no sequential scan', async () => {
    const org = await t.newOrg();
    const token = await t.tokenFor(org, ['courses:read', 'lessons:read', 'analytics:read', 'certificates:read']);
    const c = await insertCourse(t, org, { title: 'Indexing 101' });
    const s = await insertStudent(t, org);
    await insertLesson(t, org, c.uuid);
    await rate(t, org, c.uuid, s.uuid, 4);
    await issueCertificate(t, org, s.uuid, c.uuid);
    const cases: [string, RegExp, string][] = [
      ['/v2/courses/', /FROM "courses"/, 'courses_org_created_idx'],
      ['/v2/courses/?filter[title]=dexi', /FROM "courses"/, 'courses_'],
      ['/v2/courses/?filter[updated_since]=2000-01-01T00:00:00Z', /FROM "courses"/, 'courses_org_updated_idx'],
      ['/v2/lessons/', /FROM "lessons"/, 'lessons_'],
      [`/v2/lessons/?filter[course_id]=${c.id}`, /FROM "lessons"/, 'lessons_'],
      [`/v2/analytics/courses/${c.id}/ratings/`, /FROM "course_ratings"/, 'course_ratings_course_created_idx'],
      ['/v2/certificates/', /FROM "?certificates"? c?\b/, 'certificates_'],
    ];
    for (const [url, match, index] of cases) {
      const run = await countQueries(() => t.get(url, { token }));
      expect(run.result.status).toBe(200);
      const i = run.statements.findIndex((q) => match.test(q));
      expect({ url, found: i >= 0 }).toEqual({ url, found: true });
      const qr = t.ds.createQueryRunner();
      try {
        await qr.query('SET enable_seqscan = off');
        // sorts off too: the index must give the list's order (with two indexes on the course, a tiny table otherwise makes "any index, then sort" as cheap)
        await qr.query('SET enable_sort = off');
        const rows = await qr.query(`EXPLAIN ${run.statements[i]}`, run.params[i]);
        const plan = rows.map((r: any) => r['QUERY PLAN']).join('\n');
        expect({ url, seq: /Seq Scan on (courses|lessons|course_ratings|certificates)\b/.test(plan) }).toEqual({ url, seq: false });
        expect({ url, usesIndex: plan.includes(index) }).toEqual({ url, usesIndex: true });
      } finally {
        await qr.query('RESET enable_seqscan');
        await qr.query('RESET enable_sort');
        await qr.release();
      }
    }
  });
});
