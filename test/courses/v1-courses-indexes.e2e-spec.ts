import { startTestApp, TestApp } from '../support/app';
import { countQueries, insertCourse, insertLesson } from '../support/fixtures';

/**
 * Every /v1 content list is served by an index: each statement the API sends for the list is
 * EXPLAINed with sequential scans disabled; a plan that still needs a Seq Scan has no usable index.
 */
describe('/v1 courses, labels, tags and lessons lists use indexes', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('EXPLAIN of every statement of each list has no sequential scan', async () => {
    const org = await t.newOrg();
    const auth = { basic: org.api_key };
    const course = (await t.post('/v1/courses', { title: 'Idx', short_description: 's', enforce_sequential_navigation: false, labels: ['Ops'] }, auth)).body;
    const c2 = await insertCourse(t, org);
    await insertLesson(t, org, c2.uuid, { type: 'MODULAR', content_html: null });
    await t.post('/v1/tags', { name: 'Tagged' }, auth);
    const urls = [
      '/v1/courses',
      '/v1/courses?label__name=Ops',
      '/v1/courses?updated_since=2000-01-01T00:00:00Z',
      `/v1/courses/${course.id}/labels`,
      '/v1/labels',
      '/v1/tags',
      '/v1/lessons',
      `/v1/lessons?course_id=${c2.id}`,
    ];
    const tables = /Seq Scan on (courses|course_labels|labels|tags|lessons|course_ratings)\b/;
    for (const url of urls) {
      const run = await countQueries(() => t.get(url, auth));
      expect({ url, status: run.result.status }).toEqual({ url, status: 200 });
      const qr = t.ds.createQueryRunner();
      let explained = 0;
      let onUpdatedIdx = false;
      try {
        await qr.query('SET enable_seqscan = off');
        for (const [i, sql] of run.statements.entries()) {
          if (!/^\s*SELECT/i.test(sql) || !/(courses|labels|tags|lessons|course_ratings)/.test(sql)) continue;
          explained++;
          const rows = await qr.query(`EXPLAIN ${sql}`, run.params[i]);
          const plan = rows.map((r: any) => r['QUERY PLAN']).join('\n');
          expect({ url, sql, seq: tables.test(plan) }).toEqual({ url, sql, seq: false });
          onUpdatedIdx ||= plan.includes('courses_org_updated_idx');
        }
        expect({ url, explained: explained >= 1 }).toEqual({ url, explained: true });
        // the list ordered by last change reads its own index
        if (url.includes('updated_since')) expect({ url, onUpdatedIdx }).toEqual({ url, onUpdatedIdx: true });
      } finally {
        await qr.query('RESET enable_seqscan');
        await qr.release();
      }
    }
  });
});
