import { randomBytes } from 'node:crypto';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { decodeId } from '../../src/core/ids/ids';
import type { CreatedOrg } from '../../src/modules/organizations/organizations.service';
import { fixtures } from '../enrollments/v2-enrollments.helpers';
import { answer, mcpClient } from '../mcp/mcp-support';
import { startTestApp, TestApp } from '../support/app';

/**
 * `dry_run=true` (CONVENTIONS §21, issue 33 item 4; core/dry-run/dry-run.ts): a write answers what
 * it would answer, with nothing written (rows counted) and nothing emitted (outbox events counted),
 * over HTTP on /v2 batches and /v1 creates, updates and deletes, and as the `dry_run` argument of
 * a tool. Each dry run is followed by the real write, whose answer it must predict.
 */
describe('dry runs', () => {
  let t: TestApp;
  let org: CreatedOrg;
  let token: string;
  let f: ReturnType<typeof fixtures>;
  let client: Client;
  const rnd = () => randomBytes(4).toString('hex');
  const orgUuid = () => decodeId('organization', org.organization_id)!;
  const count = async (sql: string) => (await t.ds.query(sql, [orgUuid()]))[0].n as number;
  /** every row this test's organization has in the tables a write here touches, and its outbox */
  const state = async () => ({
    users: await count(`SELECT count(*)::int AS n FROM users WHERE organization_id = $1`),
    domainUsers: await count(`SELECT count(*)::int AS n FROM domain_users WHERE organization_id = $1`),
    enrollments: await count(`SELECT count(*)::int AS n FROM enrollments WHERE organization_id = $1`),
    courses: await count(`SELECT count(*)::int AS n FROM courses WHERE organization_id = $1`),
    webhooks: await count(`SELECT count(*)::int AS n FROM webhooks WHERE organization_id = $1`),
    events: await count(`SELECT count(*)::int AS n FROM outbox_events WHERE organization_id = $1`),
    idempotencyKeys: await count(`SELECT count(*)::int AS n FROM idempotency_keys WHERE organization_id = $1`),
  });
  /** an answer with what differs between two runs of the same write (generated ids, times, links) masked */
  const masked = (body: unknown): unknown =>
    JSON.parse(
      JSON.stringify(body)
        .replace(/"(enr|stu|usr|crs|dus|hook|whk|pc|evt)[0-9a-z]{20,}"/g, '"<id>"')
        .replace(/[A-Za-z]{2,5}[0-9a-z]{25}/g, '<id>')
        .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<uuid>')
        .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)/g, '<time>'),
    );

  beforeAll(async () => {
    t = await startTestApp();
    org = await t.newOrg('Dry runs');
    token = await t.tokenFor(org);
    f = fixtures(t, org, token);
    client = await mcpClient(t, token);
  });
  afterAll(async () => {
    await client?.close();
    await t?.close();
  });

  it('a 100-item /v1 bulk-create and /v2 bulk-enroll: the dry run predicts the answer of the real write that follows, and writes and emits nothing', async () => {
    const c = await f.course({ title: 'Dry 101' });
    const emails = Array.from({ length: 100 }, (_, i) => `dry-${i}-${rnd()}@example.test`);
    const users = { users: emails.map((email) => ({ email, first_name: 'Dry', last_name: 'Run' })) };

    // /v1 create: 100 new domain users (100 users, 100 memberships, 100 DOMAIN_ENROLLMENT events when real)
    const before = await state();
    const dry = await t.post(`/v1/domains/${org.domain_name}/users/bulk-create?dry_run=true`, users, { basic: org.api_key });
    expect(dry.headers.get('dry-run')).toBe('true');
    expect(await state()).toEqual(before);
    const real = await t.post(`/v1/domains/${org.domain_name}/users/bulk-create`, users, { basic: org.api_key });
    expect(real.headers.get('dry-run')).toBeNull();
    expect([dry.status, masked(dry.body)]).toEqual([real.status, masked(real.body)]);
    const afterUsers = await state();
    expect(afterUsers).toEqual({ ...before, users: before.users + 100, domainUsers: before.domainUsers + 100, events: before.events + 100 });

    // /v2 batch of 100: two already enrolled (a conflict the dry run must predict), 98 new
    await f.enroll(c.publishedCourseId, emails[0]);
    await f.enroll(c.publishedCourseId, emails[1]);
    const ready = await state();
    const body = { published_course_id: c.publishedCourseId, data: emails.map((email) => ({ type: 'enrollments', attributes: { email } })) };
    const dryBatch = await t.post('/v2/enrollments/?dry_run=true', body, { token });
    expect(await state()).toEqual(ready);
    const realBatch = await t.post('/v2/enrollments/', body, { token });
    expect(dryBatch.status).toBe(realBatch.status);
    expect(realBatch.body.summary.total).toBe(100);
    expect(masked(dryBatch.body)).toEqual(masked(realBatch.body));
    const done = await state();
    expect(done.enrollments - ready.enrollments).toBe(realBatch.body.summary.succeeded);
    expect(done.events).toBeGreaterThan(ready.events); // the real write emitted, the dry run did not
  });

  it('/v1 update and delete: same status and answer, nothing changed; a dry run claims no Idempotency-Key', async () => {
    const created = await t.post('/v1/courses', { title: 'Kept', short_description: 'S', enforce_sequential_navigation: false }, { basic: org.api_key });
    expect(created.status).toBe(201);
    const dryCreate = await t.post(
      '/v1/courses?dry_run=true',
      { title: 'Never', short_description: 'S', enforce_sequential_navigation: false },
      { basic: org.api_key, headers: { 'idempotency-key': `k-${rnd()}` } },
    );
    expect(dryCreate.status).toBe(201);
    expect(dryCreate.body).toMatchObject({ title: 'Never' });
    expect((await t.get(`/v1/courses/${dryCreate.body.id}`, { basic: org.api_key })).status).toBe(404);

    const before = await state();
    const dryPatch = await t.patch(`/v1/courses/${created.body.id}?dry_run=true`, { title: 'Renamed' }, { basic: org.api_key });
    expect(dryPatch.status).toBe(200);
    expect(dryPatch.body.title).toBe('Renamed');
    expect((await t.get(`/v1/courses/${created.body.id}`, { basic: org.api_key })).body.title).toBe('Kept');
    // validation still runs: the error the write would give
    const dryBad = await t.patch(`/v1/courses/${created.body.id}?dry_run=true`, { title: '' }, { basic: org.api_key });
    const realBad = await t.patch(`/v1/courses/${created.body.id}`, { title: '' }, { basic: org.api_key });
    expect([dryBad.status, dryBad.body]).toEqual([realBad.status, realBad.body]);
    expect(dryBad.status).toBe(400);

    const hook = await t.post('/v1/webhooks', { target_url: 'https://hooks.example.test/in', events: ['COURSE_ENROLLMENT'] }, { basic: org.api_key });
    expect(hook.status).toBe(201);
    const afterHook = await state();
    const dryDelete = await t.delete(`/v1/webhooks/${hook.body.id}?dry_run=true`, { basic: org.api_key });
    expect(dryDelete.status).toBe(204);
    expect((await t.get(`/v1/webhooks/${hook.body.id}`, { basic: org.api_key })).status).toBe(200);
    expect(await state()).toEqual(afterHook);
    expect(afterHook).toEqual({ ...before, webhooks: before.webhooks + 1 });
    // a bad value of the parameter is a bad parameter, nothing done
    const bad = await t.delete(`/v1/webhooks/${hook.body.id}?dry_run=maybe`, { basic: org.api_key });
    expect(bad.status).toBe(400);
    expect(bad.body.detail).toMatch(/dry_run/);
    expect((await t.get(`/v1/webhooks/${hook.body.id}`, { basic: org.api_key })).status).toBe(200);
  });

  it('as a tool argument: dry_run on a /v2 batch tool and a destructive tool (which then needs no confirmation)', async () => {
    const before = await state();
    const data = Array.from({ length: 3 }, () => ({ type: 'students', attributes: { email: `tool-${rnd()}@example.test` } }));
    const dry = answer(await client.callTool({ name: 'create_students', arguments: { data, dry_run: true } }));
    expect(dry.isError).toBe(false);
    expect(dry.json.data).toHaveLength(3);
    expect(await state()).toEqual(before);
    const real = answer(await client.callTool({ name: 'create_students', arguments: { data } }));
    expect(masked(dry.json)).toEqual(masked(real.json));
    const studentId = real.json.data[0].id;
    const afterCreate = await state();
    expect(afterCreate.users).toBe(before.users + 3);

    const dryDeactivate = answer(await client.callTool({ name: 'deactivate_student', arguments: { id: studentId, dry_run: true } }));
    expect(dryDeactivate.isError).toBe(false);
    expect((await t.get(`/v2/students/${studentId}`, { token })).body.data.attributes).toMatchObject({ is_inactive: false });
    expect(await state()).toEqual(afterCreate);
  });
});
