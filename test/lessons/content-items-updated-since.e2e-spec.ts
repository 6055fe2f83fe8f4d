import type { CreatedOrg } from '../../src/modules/organizations/organizations.service';
import { startTestApp, TestApp } from '../support/app';
import { countQueries, planOf } from '../support/fixtures';
import { pause, v1PageIds } from '../support/updated-since';

/**
 * /v1/lessons/{id}/content-items?updated_since (issue 32 point 1, docs/decisions/data-out.md): a block
 * has no time of its own, its last change is its lesson's `updated_at`. So every write of blocks must
 * move it (checked here for each write path of /v1 and /v2), and the list answers the lesson's blocks,
 * in their order, when the lesson changed at or after the time, none otherwise.
 */
jest.setTimeout(120_000);

describe('/v1 lesson content items: updated_since', () => {
  let t: TestApp;
  let org: CreatedOrg;
  let token: string;
  let course: string;
  beforeAll(async () => {
    t = await startTestApp();
    org = await t.newOrg();
    token = await t.tokenFor(org);
    course = (await t.post('/v1/courses', { title: 'Blocks', short_description: 's', enforce_sequential_navigation: false }, key())).body.id;
  });
  afterAll(() => t.close());
  const key = () => ({ basic: org.api_key });
  const items = (lesson: string, query = '') => `/v1/lessons/${lesson}/content-items${query}`;
  const since = (lesson: string, at: string) => t.get(items(lesson, `?updated_since=${encodeURIComponent(at)}`), key());

  /** A MODULAR lesson with two blocks, made by /v2. */
  async function lesson(): Promise<string> {
    const res = await t.post(
      '/v2/lessons/',
      {
        data: [
          {
            type: 'lessons',
            attributes: {
              course_id: course,
              title: 'M',
              type: 'MODULAR',
              content_items: [
                { type: 'HTML', content_html: '<p>1</p>' },
                { type: 'HTML', content_html: '<p>2</p>' },
              ],
            },
          },
        ],
      },
      { token },
    );
    expect(res.status).toBe(200);
    return res.body.data[0].result.id;
  }

  /** A time after every write so far: the lesson's blocks are not changed since it. */
  async function now(lessons: string[]): Promise<string> {
    await pause(5);
    const at = new Date().toISOString();
    await pause(5);
    for (const l of lessons) expect({ l, body: (await since(l, at)).body }).toEqual({ l, body: { count: 0, next: null, previous: null, results: [] } });
    return at;
  }

  /** After a write, the lesson's blocks are all changed since `at`, in their usual order. */
  async function changed(l: string, at: string) {
    const all = (await t.get(items(l), key())).body;
    expect(all.count).toBeGreaterThan(0);
    expect({ l, body: (await since(l, at)).body }).toEqual({ l, body: all });
  }

  it('a lesson made by /v2 shows its blocks as changed since a time before, in order and across pages; none since a later time', async () => {
    const before = new Date(Date.now() - 1000).toISOString();
    const l = await lesson();
    await changed(l, before);
    const all = (await t.get(items(l), key())).body.results.map((r: any) => r.id);
    expect(all).toHaveLength(2);
    expect(await v1PageIds(t, items(l, `?updated_since=${encodeURIComponent(before)}`), key())).toEqual(all);
    await now([l]);
    expect((await t.get(items(l, '?updated_since=2999-01-01T00:00:00Z'), key())).body).toEqual({ count: 0, next: null, previous: null, results: [] });
  });

  it('every write path of blocks moves the lesson: /v1 create, PUT, PATCH, a move to another lesson, rating blocks, /v2 lesson update', async () => {
    const l = await lesson();
    let at = await now([l]);
    const created = await t.post(items(l), { header: 'Third', order: 9, type: 'HTML', content_html: '<p>3</p>' }, key());
    expect(created.status).toBe(201);
    await changed(l, at);

    at = await now([l]);
    expect((await t.request('PUT', items(l, `/${created.body.id}`), { ...key(), body: { header: 'Put' } })).status).toBe(200);
    await changed(l, at);

    at = await now([l]);
    expect((await t.patch(items(l, `/${created.body.id}`), { header: 'Patched' }, key())).status).toBe(200);
    await changed(l, at);

    // a move: the block leaves one lesson and joins another, both changed
    const other = await lesson();
    at = await now([l, other]);
    expect((await t.patch(items(l, `/${created.body.id}`), { lesson_id: other }, key())).status).toBe(200);
    await changed(l, at);
    await changed(other, at);

    at = await now([l]);
    const rating = await t.post(`/v1/lessons/${l}/rating-content-blocks`, { rating_question: 'How was it?' }, key());
    expect(rating.status).toBe(201);
    await changed(l, at);

    at = await now([l]);
    expect((await t.patch(`/v1/lessons/${l}/rating-content-blocks/${rating.body.id}`, { rating_question: 'Better?' }, key())).status).toBe(200);
    await changed(l, at);

    at = await now([l]);
    expect((await t.delete(`/v1/lessons/${l}/rating-content-blocks/${rating.body.id}`, key())).status).toBe(204);
    await changed(l, at);

    at = await now([l]);
    const v2 = await t.patch('/v2/lessons/', { data: [{ type: 'lessons', id: l, attributes: { content_items: [{ type: 'HTML', content_html: '<p>only</p>' }] } }] }, { token });
    expect(v2.status).toBe(200);
    await changed(l, at);
    expect((await since(l, at)).body.count).toBe(1);
  });

  it('a bad value is 400 {"updated_since": [...]}, an unknown lesson 404', async () => {
    const l = await lesson();
    for (const bad of ['yesterday', '2026-01-01T00:00:00']) {
      const res = await t.get(items(l, `?updated_since=${bad}`), key());
      expect({ bad, status: res.status, body: res.body }).toEqual({ bad, status: 400, body: { updated_since: [expect.any(String)] } });
    }
    expect((await t.get(items('nothing', '?updated_since=2000-01-01T00:00:00Z'), key())).status).toBe(404);
  });

  it('the lesson is read by its key (one row, whatever the organization holds)', async () => {
    const l = await lesson();
    // the organization's other lessons (an analyzed table of a few rows is cheapest read on any index of the organization)
    const many = await t.post(
      '/v2/lessons/',
      { data: Array.from({ length: 50 }, (_, i) => ({ type: 'lessons', attributes: { course_id: course, title: `L${i}`, type: 'HTML', content_html: 'x' } })) },
      { token },
    );
    expect(many.status).toBe(200);
    await t.ownerQuery('ANALYZE lessons');
    const run = await countQueries(() => since(l, '2000-01-01T00:00:00Z'));
    expect(run.result.status).toBe(200);
    const plan = await planOf(t, run, /FROM "lessons"/, { indexOrder: true });
    // one of the two unique keys of a lesson: its id, or (organization_id, id) which the statement also names
    expect(plan).toMatch(/Index Scan using (lessons_pkey|lessons_organization_id_id_key) on lessons l\s+\(.*\)\n\s+Index Cond: \(.*\bid = /);
    expect(plan).not.toContain('Seq Scan');
  });
});
