import { startTestApp, TestApp } from '../support/app';
import { countQueries } from '../support/fixtures';

jest.setTimeout(120_000);

/**
 * Statement queries whose cost does not grow with the organization (docs/decisions/lrs.md
 * "Queries that stay flat"): the statement the LRS sends for a filtered page is EXPLAINed
 * (ANALYZE) on a few hundred statements stored through the LRS's own POST; the page is read by
 * walking the filter's index backwards and stopping after limit + 1 rows, never by reading every
 * statement of the activity (or verb, registration) and sorting them. The answers are the same
 * as before: every matching statement and every statement that refers to one, once, in order,
 * across `more` pages, in both directions.
 */
describe('the LRS reads a page of statements without reading all of them', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  const agent = (n: string) => ({ objectType: 'Agent', mbox: `mailto:${n}@example.test` });
  const verb = (v: string) => ({ id: `http://adlnet.gov/expapi/verbs/${v}` });
  const act = (id: string) => ({ objectType: 'Activity', id: `http://example.test/act/${id}` });
  const REG = '5d7f2a0e-1c1b-4f57-9d83-2a0d5d1e0a11';

  type PlanNode = { 'Node Type': string; 'Index Name'?: string; 'Actual Rows': number; 'Actual Loops': number; Plans?: PlanNode[] };
  const nodes = (n: PlanNode): PlanNode[] => [n, ...(n.Plans ?? []).flatMap(nodes)];

  it('activity, verb, registration, since and agent pages stop after a page; refs and voiding are still answered; more pages agree', async () => {
    const org = await t.newOrg();
    const keyRes = await t.post('/v1/lrs-keys', {}, { basic: org.api_key });
    expect(keyRes.status).toBe(201);
    const headers = { Authorization: `Basic ${Buffer.from(`${keyRes.body.key}:${keyRes.body.secret}`).toString('base64')}`, 'X-Experience-API-Version': '2.0.0' };

    // 600 statements of one activity (half in one registration), 600 of others, in batches of 50
    const ofActivity: string[] = [];
    for (let b = 0; b < 24; b++) {
      const mine = b % 2 === 0;
      const batch = Array.from({ length: 50 }, (_, i) => ({
        actor: agent(`learner${(b * 50 + i) % 97}`),
        verb: verb(mine ? 'experienced' : 'attempted'),
        object: mine ? act('big') : act(`other${i}`),
        ...(mine && b % 4 === 0 ? { context: { registration: REG } } : {}),
      }));
      const res = await t.post('/xapi/statements', batch, { headers });
      expect(res.status).toBe(200);
      if (mine) ofActivity.push(...res.body);
    }
    // a statement referring to one of the activity's statements, and one voiding another
    const ref = await t.post('/xapi/statements', { actor: agent('ref'), verb: verb('commented'), object: { objectType: 'StatementRef', id: ofActivity[10] } }, { headers });
    const voiding = await t.post('/xapi/statements', { actor: agent('ref'), verb: verb('voided'), object: { objectType: 'StatementRef', id: ofActivity[20] } }, { headers });
    expect([ref.status, voiding.status]).toEqual([200, 200]);
    // as autovacuum would: statistics, and the GIN indexes' pending entries moved into the index
    await t.ds.query('VACUUM ANALYZE lrs_statements');

    const enc = encodeURIComponent;
    // the key's authority agent is related to every statement the key stored
    const authority = (await t.get(`/xapi/statements?statementId=${ofActivity[0]}`, { headers })).body.authority;
    expect(authority.account.name).toBe(keyRes.body.key);

    // agent pages (lrs_statement_agents): learner3's statements as actor, once each, in order, both
    // ways; with a verb too; the related agent (the authority) names them all
    const learner3 = enc(JSON.stringify(agent('learner3')));
    const walk = async (first: string) => {
      const seen: { id: string; stored: string; verb: string; actor: string }[] = [];
      let url = first;
      while (url) {
        const page = await t.get(url, { headers });
        expect(page.status).toBe(200);
        for (const st of page.body.statements) seen.push({ id: st.id, stored: st.stored, verb: st.verb.id, actor: st.actor.mbox });
        url = page.body.more;
      }
      return seen;
    };
    const mine = await walk(`/xapi/statements?agent=${learner3}&limit=4`);
    expect(mine).toHaveLength(13);
    expect(new Set(mine.map((x) => x.id)).size).toBe(13);
    expect(mine.every((x) => x.actor === 'mailto:learner3@example.test')).toBe(true);
    expect(mine.map((x) => x.stored)).toEqual(
      mine
        .map((x) => x.stored)
        .sort()
        .reverse(),
    );
    const mineUp = await walk(`/xapi/statements?agent=${learner3}&limit=4&ascending=true`);
    expect(mineUp.map((x) => x.id)).toEqual([...mine.map((x) => x.id)].reverse());
    const mineExperienced = await walk(`/xapi/statements?agent=${learner3}&verb=${enc('http://adlnet.gov/expapi/verbs/experienced')}&limit=2`);
    expect(mineExperienced.map((x) => x.id)).toEqual(mine.filter((x) => x.verb === 'http://adlnet.gov/expapi/verbs/experienced').map((x) => x.id));
    expect(mineExperienced.length).toBeGreaterThan(0);
    // the authority is only related to the statements: no page of its own as actor
    expect(await walk(`/xapi/statements?agent=${enc(JSON.stringify(authority))}&limit=100`)).toHaveLength(0);
    expect((await t.get(`/xapi/statements?agent=${enc(JSON.stringify(authority))}&related_agents=true&limit=100`, { headers })).body.statements).toHaveLength(100);
    const big = enc('http://example.test/act/big');

    // the same answers: all of them once, in order, across pages, both ways
    const expected = new Set([...ofActivity.filter((id) => id !== ofActivity[20]), ref.body[0], voiding.body[0]]);
    for (const ascending of [false, true]) {
      const seen: string[] = [];
      const stored: string[] = [];
      let url = `/xapi/statements?activity=${big}&limit=100&ascending=${ascending}`;
      while (url) {
        const page = await t.get(url, { headers });
        expect(page.status).toBe(200);
        for (const s of page.body.statements) {
          seen.push(s.id);
          stored.push(s.stored);
        }
        url = page.body.more;
      }
      expect(seen).toHaveLength(expected.size);
      expect(new Set(seen)).toEqual(expected);
      const sorted = [...stored].sort();
      expect(stored).toEqual(ascending ? sorted : sorted.reverse());
      // newest first: the two refs were stored last
      if (!ascending) expect(new Set(seen.slice(0, 2))).toEqual(new Set([ref.body[0], voiding.body[0]]));
    }

    const cases: { q: string; index: string }[] = [
      { q: `activity=${big}&limit=10`, index: 'lrs_statements_activity_idx' },
      { q: `activity=${big}&limit=10&ascending=true`, index: 'lrs_statements_activity_idx' },
      { q: `verb=${enc('http://adlnet.gov/expapi/verbs/experienced')}&limit=10`, index: 'lrs_statements_verb_idx' },
      { q: `registration=${REG}&limit=10`, index: 'lrs_statements_registration_idx' },
      { q: `since=2000-01-01T00:00:00Z&limit=10`, index: 'lrs_statements_seq_idx' },
      // learner3 is the actor of 13 statements; the key's authority names all 1,202 (related)
      { q: `agent=${learner3}&limit=10`, index: 'lrs_statement_agents_direct_idx' },
      { q: `agent=${learner3}&limit=10&ascending=true`, index: 'lrs_statement_agents_direct_idx' },
      { q: `agent=${enc(JSON.stringify(authority))}&related_agents=true&limit=10`, index: 'lrs_statement_agents_idx' },
    ];
    for (const { q, index } of cases) {
      const run = await countQueries(() => t.get(`/xapi/statements?${q}`, { headers }));
      expect(run.result.status).toBe(200);
      const size = Number(/limit=(\d+)/.exec(q)![1]);
      expect(run.result.body.statements).toHaveLength(size);
      const i = run.statements.findIndex((s) => /FROM lrs_statement(s|_agents a) /.test(s) && /LIMIT/.test(s));
      expect({ q, found: i >= 0 }).toEqual({ q, found: true });
      const [row] = await t.ds.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${run.statements[i]}`, run.params[i]);
      const plan = nodes(row['QUERY PLAN'][0].Plan);
      if (process.env.SHOW_PLANS)
        console.log(
          q,
          JSON.stringify(
            row['QUERY PLAN'][0].Plan,
            (k, v) =>
              ['Plans', 'Node Type', 'Index Name', 'Actual Rows', 'Actual Loops', 'Scan Direction', 'Relation Name', 'Index Cond', 'Filter'].includes(k) || /^\d+$/.test(k) || k === '' ? v : undefined,
            1,
          ),
        );
      const scans = plan.filter((n) => n['Index Name'] === index);
      // the filter's index is walked in `stored` order (no sort of every match) and stops after a page
      expect({ q, scans: scans.map((n) => n['Node Type']) }).toEqual({ q, scans: [expect.stringMatching(/^Index (Only )?Scan$/)] });
      expect({ q, rows: scans[0]['Actual Rows'] <= size + 1 }).toEqual({ q, rows: true });
      // and nothing else reads more than a page: the StatementRef arm walks the two statements with
      // a reference and probes their targets by key (it never reads the 600 statements of the activity)
      const read = plan.filter((n) => /Scan/.test(n['Node Type'])).map((n) => n['Actual Rows'] * n['Actual Loops']);
      expect({ q, most: Math.max(...read) }).toEqual({ q, most: expect.any(Number) });
      expect({ q, flat: read.every((r) => r <= Math.max(size + 1, 11)) }).toEqual({ q, flat: true });
      expect({ q, sorts: plan.filter((n) => n['Node Type'] === 'Sort' && n['Actual Rows'] > size + 1).length }).toEqual({ q, sorts: 0 });
      expect({ q, seq: plan.some((n) => n['Node Type'] === 'Seq Scan') }).toEqual({ q, seq: false });
    }
  });
});
