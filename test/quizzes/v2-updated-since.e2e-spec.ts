import { startTestApp, TestApp } from '../support/app';
import { countQueries } from '../support/fixtures';

/**
 * /v2 quizzes and question banks with `filter[updated_since]` (docs/decisions/data-out.md): the
 * rows changed at or after it, ordered by last change (updated_at, id) with the cursor at that
 * position, on the (organization_id, updated_at, id) index of the live rows; without the filter the
 * lists stay in creation order.
 */
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('/v2 quizzes and question banks: filter[updated_since]', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  const kinds = [
    { path: '/v2/quizzes/', type: 'quizzes', index: 'quizzes_org_updated_id_idx', table: 'quizzes q' },
    { path: '/v2/question-banks/', type: 'question-banks', index: 'question_banks_org_updated_id_idx', table: 'question_banks b' },
  ] as const;

  for (const k of kinds) {
    it(`${k.path}: changed rows only, ordered by last change across cursor pages, on the index`, async () => {
      const o = await t.newOrg();
      const tok = { token: await t.tokenFor(o) };
      const ids: string[] = [];
      for (const name of ['A', 'B', 'C']) {
        const res = await t.post(k.path, { data: [{ type: k.type, attributes: { name } }] }, tok);
        expect(res.status).toBe(200);
        ids.push(res.body.data[0].id);
        await pause(5);
      }
      const [a, b, c] = ids;
      const mid = new Date().toISOString();
      await pause(5);
      expect((await t.patch(k.path, { data: [{ type: k.type, id: a, attributes: { name: 'A2' } }] }, tok)).status).toBe(200);

      const since = await t.get(`${k.path}?filter[updated_since]=${encodeURIComponent(mid)}`, tok);
      expect(since.status).toBe(200);
      expect(since.body.data.map((d: any) => [d.id, d.attributes.name])).toEqual([[a, 'A2']]);

      // every row by last change, one per page: b, c, then a (changed last)
      const seen: string[] = [];
      let url: string | null = `${k.path}?filter[updated_since]=2000-01-01T00:00:00Z&page[size]=1`;
      for (let i = 0; url && i < 5; i++) {
        const res: { status: number; body: any } = await t.get(url, tok);
        expect(res.status).toBe(200);
        seen.push(...res.body.data.map((d: any) => d.id));
        url = res.body.next_cursor ? `${k.path}?filter[updated_since]=2000-01-01T00:00:00Z&page[size]=1&page[cursor]=${encodeURIComponent(res.body.next_cursor)}` : null;
      }
      expect(seen).toEqual([b, c, a]);
      // without the filter: creation order, as before
      expect((await t.get(k.path, tok)).body.data.map((d: any) => d.id)).toEqual([a, b, c]);

      const run = await countQueries(() => t.get(`${k.path}?filter[updated_since]=2000-01-01T00:00:00Z`, tok));
      const i = run.statements.findIndex((s) => s.includes(`FROM ${k.table}`) && /ORDER BY [a-z]\.updated_at, [a-z]\.id/.test(s));
      expect(i).toBeGreaterThanOrEqual(0);
      const qr = t.ds.createQueryRunner();
      try {
        await qr.query('SET enable_seqscan = off');
        const plan = (await qr.query(`EXPLAIN ${run.statements[i]}`, run.params[i])).map((r: any) => r['QUERY PLAN']).join('\n');
        expect(plan).toMatch(new RegExp(k.index));
      } finally {
        await qr.query('RESET enable_seqscan');
        await qr.release();
      }
    });
  }
});
