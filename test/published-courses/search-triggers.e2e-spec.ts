import { startTestApp, TestApp } from '../support/app';
import { insertCourse, insertLesson } from '../support/fixtures';
import type { CreatedOrg } from '../../src/modules/organizations/organizations.service';

/** The lesson -> course search-vector triggers run once per statement and only on relevant changes. */
describe('catalog search triggers', () => {
  let t: TestApp;
  let org: CreatedOrg;
  beforeAll(async () => {
    t = await startTestApp();
    org = await t.newOrg();
  });
  afterAll(() => t.close());

  async function inTransaction<T>(fn: (q: (sql: string, p?: unknown[]) => Promise<any[]>) => Promise<T>): Promise<T> {
    const qr = t.ds.createQueryRunner();
    await qr.connect();
    await qr.startTransaction();
    try {
      return await fn((sql, p) => qr.query(sql, p));
    } finally {
      await qr.rollbackTransaction();
      await qr.release();
    }
  }
  // updates of `courses` counted by this backend (pending statistics include the open transaction's)
  const courseUpdates = async (q: (sql: string) => Promise<any[]>) => Number((await q(`SELECT n_tup_upd FROM pg_stat_xact_user_tables WHERE relname = 'courses'`))[0]?.n_tup_upd ?? 0);

  it('updates each affected course once per statement, in one locked pass, and keeps the vector current', async () => {
    const a = await insertCourse(t, org, { title: 'Alpha' });
    const b = await insertCourse(t, org, { title: 'Beta' });
    for (let i = 0; i < 5; i++) {
      await insertLesson(t, org, a.uuid, { title: `a${i}` });
      await insertLesson(t, org, b.uuid, { title: `b${i}` });
    }
    await inTransaction(async (q) => {
      const before = await courseUpdates(q);
      await q(`UPDATE lessons SET search_keywords = 'zeppelin' WHERE course_id = ANY($1)`, [[a.uuid, b.uuid]]);
      expect((await courseUpdates(q)) - before).toBe(2); // row-level triggers did 10
      const hits = await q(`SELECT id FROM courses WHERE search_vector @@ plainto_tsquery('english', 'zeppelin') ORDER BY title`);
      expect(hits.map((r: any) => r.id)).toEqual([a.uuid, b.uuid]);
    });
  });

  it('leaves courses alone when no column that feeds the vector changed', async () => {
    const c = await insertCourse(t, org, { title: 'Gamma' });
    await insertLesson(t, org, c.uuid, { title: 'g' });
    await inTransaction(async (q) => {
      const before = await courseUpdates(q);
      await q(`UPDATE lessons SET title = 'renamed', search_keywords = search_keywords WHERE course_id = $1`, [c.uuid]);
      expect((await courseUpdates(q)) - before).toBe(0);
    });
  });
});
