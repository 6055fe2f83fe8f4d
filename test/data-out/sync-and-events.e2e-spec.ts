import { randomBytes } from 'node:crypto';
import { encodeId } from '../../src/core/ids/ids';
import { startTestApp, TestApp } from '../support/app';
import { countQueries, orgUuid, planOf, v2Pages } from '../support/fixtures';
import { fixtures } from '../enrollments/v2-enrollments.helpers';
import { answer, mcpClient } from '../mcp/mcp-support';

/**
 * CONVENTIONS §20, incremental sync: `filter[updated_since]` (/v2) and `updated_since` (/v1) order
 * by last change and are served by the (organization_id, updated_at, id) indexes; the event log
 * GET /v2/events/ shows webhook events with their webhook bodies and the sync events the database
 * writes (user.updated, user.deactivated, enrollment.updated, progress.updated, ...).
 */
jest.setTimeout(120_000);

const rnd = () => randomBytes(4).toString('hex');
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('data out: updated_since and the event log', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  async function students(tok: string, n: number) {
    const res = await t.post(
      '/v2/students/',
      { data: Array.from({ length: n }, (_x, i) => ({ type: 'students', attributes: { email: `s${i}-${rnd()}@example.test`, first_name: 'S', last_name: `${i}` } })) },
      { token: tok },
    );
    expect(res.status).toBe(200);
    return res.body.data.map((d: any) => d.id as string);
  }
  const rename = (tok: string, id: string, first: string) => t.patch('/v2/students/', { data: [{ type: 'students', id, attributes: { first_name: first } }] }, { token: tok });

  it('/v2/students filter[updated_since]: changed rows only, ordered by last change across pages, on the updated_at index; bad values 422', async () => {
    const o = await t.newOrg();
    const tok = await t.tokenFor(o);
    const t0 = new Date(Date.now() - 1000).toISOString();
    const [s1, s2, s3] = await students(tok, 3);
    await pause(5);
    const mid = new Date().toISOString();
    await pause(5);
    expect((await rename(tok, s3, 'Third')).status).toBe(200);
    await pause(5);
    expect((await rename(tok, s1, 'First')).status).toBe(200);

    const since = await v2Pages(t, `/v2/students/?filter[updated_since]=${encodeURIComponent(mid)}`, tok);
    expect(since.map((d) => d.id)).toEqual([s3, s1]);
    // page by page (size 2): s2 (unchanged since creation), then s3 and s1 in the order they changed
    const paged = await v2Pages(t, `/v2/students/?filter[updated_since]=${encodeURIComponent(t0)}&page[size]=2`, tok);
    expect(paged.map((d) => d.id)).toEqual([s2, s3, s1]);
    expect(paged[2].attributes.first_name).toBe('First');

    for (const bad of ['yesterday', '2026-01-01T00:00:00', '2026-02-31T00:00:00Z']) {
      const res = await t.get(`/v2/students/?filter[updated_since]=${encodeURIComponent(bad)}`, { token: tok });
      expect(res.status).toBe(422);
      expect(res.body.errors[0].source).toEqual({ parameter: 'filter[updated_since]' });
    }
    const run = await countQueries(() => t.get(`/v2/students/?filter[updated_since]=${encodeURIComponent(t0)}`, { token: tok }));
    expect(await planOf(t, run, /FROM users WHERE .*updated_at >=/)).toMatch(/users_org_updated_idx/);
  });

  it('/v1/users updated_since and /v2/enrollments filter[updated_since]: ordered by last change, on their indexes; bad values 400 / 422', async () => {
    const o = await t.newOrg();
    const tok = await t.tokenFor(o);
    const g = fixtures(t, o, tok);
    const a = await g.member();
    const b = await g.member();
    await pause(5);
    const mid = new Date().toISOString();
    await pause(5);
    expect((await t.patch(`/v1/users/${a.id}`, { first_name: 'Changed' }, g.key)).status).toBe(200);
    const v1 = await t.get(`/v1/users?updated_since=${encodeURIComponent(mid)}`, g.key);
    expect(v1.status).toBe(200);
    expect(v1.body.results.map((u: any) => u.user.id)).toEqual([a.id]);
    const v1all = await t.get(`/v1/users?updated_since=2000-01-01T00:00:00Z`, g.key);
    expect(v1all.body.results.map((u: any) => u.user.id)).toEqual([b.id, a.id]);
    const bad = await t.get(`/v1/users?updated_since=nope`, g.key);
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body)).toEqual(['updated_since']);
    const runV1 = await countQueries(() => t.get(`/v1/users?updated_since=2000-01-01T00:00:00Z`, g.key));
    expect(await planOf(t, runV1, /ORDER BY u\.updated_at/)).toMatch(/users_org_updated_idx/);

    const c = await g.course();
    const e1 = await g.enroll(c.publishedCourseId, a.email);
    const e2 = await g.enroll(c.publishedCourseId, b.email);
    await pause(5);
    const mid2 = new Date().toISOString();
    await pause(5);
    const upd = await t.patch('/v2/enrollments/', { data: [{ type: 'enrollments', id: e1, attributes: { active: false } }] }, { token: tok });
    expect(upd.status).toBe(200);
    const since = await v2Pages(t, `/v2/enrollments/?filter[updated_since]=${encodeURIComponent(mid2)}`, tok);
    expect(since.map((d) => d.id)).toEqual([e1]);
    const paged = await v2Pages(t, `/v2/enrollments/?filter[updated_since]=2000-01-01T00:00:00Z&page[size]=1`, tok);
    expect(paged.map((d) => d.id)).toEqual([e2, e1]);
    const badV2 = await t.get(`/v2/enrollments/?filter[updated_since]=2026-01-01`, { token: tok });
    expect(badV2.status).toBe(422);
    const runV2 = await countQueries(() => t.get(`/v2/enrollments/?filter[updated_since]=2000-01-01T00:00:00Z`, { token: tok }));
    expect(await planOf(t, runV2, /ORDER BY e\.updated_at/)).toMatch(/enrollments_org_updated_idx/);
  });

  it('the event log: webhook events with their webhook bodies and the sync events, filters, cursor pages, another organization sees nothing, scopes, an MCP tool', async () => {
    const o = await t.newOrg();
    const other = await t.newOrg();
    const tok = await t.tokenFor(o);
    const otherTok = await t.tokenFor(other);
    const g = fixtures(t, o, tok);
    const m = await g.member();
    const c = await g.course();
    await g.enroll(c.publishedCourseId, m.email);
    await g.lesson(m.id, c.publishedCourseId, c.lessonIds[0], { finished_at: new Date().toISOString() });
    expect((await t.patch(`/v1/users/${m.id}`, { last_name: 'Byron' }, g.key)).status).toBe(200);
    expect((await t.delete(`/v2/students/${m.id}`, { token: tok })).status).toBeLessThan(300);

    const events = await v2Pages(t, '/v2/events/?page[size]=2', tok);
    const types = events.map((e) => e.attributes.event_type);
    expect(types).toEqual(
      expect.arrayContaining(['DOMAIN_ENROLLMENT', 'COURSE_ENROLLMENT', 'LESSON_COMPLETION', 'COURSE_COMPLETION', 'progress.updated', 'enrollment.updated', 'user.updated', 'user.deactivated']),
    );
    // oldest first, no event twice across the pages
    expect(new Set(events.map((e) => e.id)).size).toBe(events.length);
    const times = events.map((e) => e.attributes.created_at);
    expect([...times].sort()).toEqual(times);
    // a webhook event's body is exactly what its webhook delivery carries: the outbox payload
    const enroll = events.find((e) => e.attributes.event_type === 'COURSE_ENROLLMENT');
    const [row] = await t.ds.query(`SELECT payload FROM outbox_events WHERE organization_id = $1 AND event_type = 'COURSE_ENROLLMENT'`, [orgUuid(o)]);
    expect(enroll.attributes.body).toEqual(row.payload);
    expect(Object.keys(enroll.attributes.body).slice(0, 3)).toEqual(['id', 'event_type', 'timestamp']);
    expect(enroll.id).toBe(row.payload.id);
    // the sync events name objects by their public ids
    const renamed = events.find((e) => e.attributes.event_type === 'user.updated' && e.attributes.body.user.last_name === 'Byron');
    expect(renamed.attributes.body.user).toMatchObject({ id: m.id, email: m.email, first_name: 'Ada', last_name: 'Byron', is_active: true });
    const deactivated = events.find((e) => e.attributes.event_type === 'user.deactivated');
    expect(deactivated.attributes.body.user).toMatchObject({ id: m.id, is_active: false });
    const progress = events.filter((e) => e.attributes.event_type === 'progress.updated');
    expect(progress[progress.length - 1].attributes.body.progress).toMatchObject({ user_id: m.id, course_id: c.courseId, published_course_id: c.publishedCourseId });
    expect(progress[progress.length - 1].attributes.body.progress.completed_at).not.toBeNull();

    // one event
    const one = await t.get(`/v2/events/${deactivated.id}`, { token: tok });
    expect(one.status).toBe(200);
    expect(one.body.data).toEqual(deactivated);
    // filters
    const only = await v2Pages(t, '/v2/events/?filter[type]=user.deactivated,user.updated', tok);
    expect(new Set(only.map((e) => e.attributes.event_type))).toEqual(new Set(['user.deactivated', 'user.updated']));
    expect((await t.get('/v2/events/?filter[type]=NOPE', { token: tok })).body.data).toEqual([]);
    expect((await t.get(`/v2/events/?filter[created_gte]=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`, { token: tok })).body.data).toEqual([]);
    const badGte = await t.get('/v2/events/?filter[created_gte]=soon', { token: tok });
    expect(badGte.status).toBe(422);
    expect(badGte.body.errors[0].source).toEqual({ parameter: 'filter[created_gte]' });
    const tampered = await t.get('/v2/events/?page[cursor]=abc', { token: tok });
    expect(tampered.status).toBe(400);
    // served by the event log's indexes, with and without a type
    const runAll = await countQueries(() => t.get('/v2/events/?page[size]=2', { token: tok }));
    expect(await planOf(t, runAll, /FROM outbox_events WHERE organization_id/)).toMatch(/outbox_events_org_log_idx/);
    const runType = await countQueries(() => t.get('/v2/events/?filter[type]=user.updated', { token: tok }));
    expect(await planOf(t, runType, /FROM outbox_events WHERE organization_id/)).toMatch(/outbox_events_org_type_log_idx/);

    // another organization: nothing of this one's
    expect((await t.get(`/v2/events/${deactivated.id}`, { token: otherTok })).status).toBe(404);
    const theirs = await v2Pages(t, '/v2/events/', otherTok);
    expect(theirs.some((e) => events.some((x) => x.id === e.id))).toBe(false);
    expect((await t.get(`/v2/events/${encodeId('event', '00000000-0000-4000-8000-000000000000')}`, { token: tok })).status).toBe(404);
    expect((await t.get('/v2/events/nonsense', { token: tok })).status).toBe(404);
    // scopes
    expect((await t.get('/v2/events/', { token: await t.tokenFor(o, ['students:read']) })).status).toBe(403);
    expect((await t.get('/v2/events/', { token: await t.tokenFor(o, ['data-export:read']) })).status).toBe(200);
    expect((await t.get('/v2/events/')).status).toBe(401);

    // the same through MCP (the full tool list: the default one is the curated set, CONVENTIONS §21)
    const client = await mcpClient(t, await t.tokenFor(o, ['data-export:read']), { all: true });
    try {
      const tools: any[] = [];
      let cursor: string | undefined;
      do {
        const page = await client.listTools(cursor ? { cursor } : {});
        tools.push(...page.tools);
        cursor = page.nextCursor;
      } while (cursor);
      const tool = tools.find((x) => x.name.startsWith('v2_events') && /list/.test(x.name));
      expect(tool).toBeDefined();
      const r = answer(await client.callTool({ name: tool.name, arguments: { 'filter.type': 'user.deactivated' } }));
      expect(r.isError).toBe(false);
      const data = r.json?.data ?? (r.json as any);
      expect(JSON.stringify(data)).toContain(deactivated.id);
    } finally {
      await client.close();
    }
  });
});
