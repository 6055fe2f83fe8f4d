import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { startTestApp, TestApp } from '../support/app';
import type { CreatedOrg } from '../../src/modules/organizations/organizations.service';
import { PUBLISHED_V2_OPERATIONS } from '../../src/modules/mcp/v2-operations';
import { routeKey } from '../../src/modules/mcp/route-rules';
import { allTools, answer, mcpClient } from './mcp-support';

/**
 * The MCP server driven by the SDK's own client (StreamableHTTPClientTransport) over HTTP against
 * the app on 127.0.0.1, with real client-credentials tokens: every tool answers what its HTTP
 * operation answers, with the caller's scopes and organization.
 */
describe('MCP server: tools', () => {
  let t: TestApp;
  let orgA: CreatedOrg;
  let orgB: CreatedOrg;
  let tokenA: string;
  let tokenB: string;
  let client: Client;
  const clients: Client[] = [];
  const connect = async (token: string) => {
    const c = await mcpClient(t, token, { all: true });
    clients.push(c);
    return c;
  };
  const createStudents = async (token: string, emails: string[]) => {
    const res = await t.post('/v2/students/', { data: emails.map((email) => ({ type: 'students', attributes: { email, first_name: 'Mc', last_name: 'Peer' } })) }, { token });
    expect(res.status).toBe(200);
    return res.body.data as { id: string }[];
  };
  /** /v2 errors carry the request's id in meta: compare the errors themselves */
  const errorsOf = (body: any) => body.errors;

  beforeAll(async () => {
    t = await startTestApp();
    orgA = await t.newOrg('MCP A');
    orgB = await t.newOrg('MCP B');
    tokenA = await t.tokenFor(orgA);
    tokenB = await t.tokenFor(orgB);
    client = await connect(tokenA);
  });
  afterAll(async () => {
    for (const c of clients) await c.close();
    await t.close();
  });

  describe('initialize and tools/list', () => {
    let doc: any;
    let names: Set<string>;
    beforeAll(async () => {
      doc = (await t.get('/openapi.json')).body;
      names = new Set((await allTools(client)).map((x) => x.name));
    });

    it('initializes with the tools capability and instructions', () => {
      expect(client.getServerVersion()).toMatchObject({ name: 'course-platform-api' });
      expect(client.getServerCapabilities()?.tools).toBeDefined();
      expect(client.getInstructions()).toMatch(/page\.cursor/);
    });

    it('has the official tool name of every served published /v2 operation, and none for the token endpoints', () => {
      const published = new Map(PUBLISHED_V2_OPERATIONS.map((o) => [routeKey(o.method, o.path), o]));
      const served = Object.entries<any>(doc.paths).flatMap(([path, item]) =>
        Object.keys(item)
          .filter((m) => ['get', 'post', 'put', 'patch', 'delete'].includes(m))
          .map((m) => routeKey(m, path)),
      );
      const expected = served.map((k) => published.get(k)).filter((o) => o?.tool);
      expect(expected.length).toBeGreaterThan(30);
      for (const o of expected) expect([o!.method, o!.path, names.has(o!.tool!)]).toEqual([o!.method, o!.path, true]);
      for (const official of ['list_students', 'create_students', 'get_student', 'bulk_enroll_students', 'complete_enrollments', 'add_group_memberships', 'register_oauth_client']) {
        expect(names.has(official)).toBe(true);
      }
      expect([...names].filter((n) => /^api_v2_oauth_tokens/.test(n))).toEqual([]);
    });

    it('has a v1_<family>_<operation> tool for every served /v1 operation', () => {
      const v1Ops = Object.entries<any>(doc.paths)
        .filter(([path]) => path.startsWith('/v1/'))
        .flatMap(([, item]) => Object.keys(item).filter((m) => ['get', 'post', 'put', 'patch', 'delete'].includes(m)));
      expect([...names].filter((n) => n.startsWith('v1_')).length).toBe(v1Ops.length);
      for (const n of [
        'v1_domains_users_list',
        'v1_domains_users_create',
        'v1_domains_published_courses_enrollments_list',
        'v1_domains_published_courses_enrollments_create',
        'v1_webhooks_list',
        'v1_webhooks_create',
        'v1_webhooks_deliveries_list',
        'v1_users_published_courses_list',
        'v1_lesson_progress_partial_update',
      ]) {
        expect(names.has(n)).toBe(true);
      }
      for (const n of names) expect(n).toMatch(/^[a-z0-9_]{1,64}$/);
    });

    it('names every argument as model APIs accept ([A-Za-z0-9_.-], at most 64): page[size] is page.size', async () => {
      const tools = await allTools(client);
      const bad = tools.flatMap((x) =>
        Object.keys(x.inputSchema.properties ?? {})
          .filter((k) => !/^[a-zA-Z0-9_.-]{1,64}$/.test(k))
          .map((k) => `${x.name}.${k}`),
      );
      expect(bad).toEqual([]);
    });

    it('describes each tool with an input schema generated from the DTOs', async () => {
      const tools = await allTools(client);
      const create = tools.find((x) => x.name === 'create_students')!;
      expect(create.inputSchema).toMatchObject({
        type: 'object',
        required: ['data'],
        properties: { data: { type: 'array', items: { properties: { type: { const: 'students' }, attributes: { required: ['email'] } } } } }, // the published body schema (the OpenAPI document's, issue 26)
      });
      expect(create.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false });
      const get = tools.find((x) => x.name === 'get_student')!;
      expect(get.inputSchema).toMatchObject({ required: ['id'], properties: { id: { type: 'string' } } });
      expect(get.annotations?.readOnlyHint).toBe(true);
      const list = tools.find((x) => x.name === 'list_students')!;
      expect(list.inputSchema.properties).toMatchObject({
        'page.size': { type: 'integer', maximum: 100 },
        'page.cursor': { type: 'string' },
        'filter.email': { anyOf: [{ type: 'string' }, { type: 'null' }] },
      }); // the published parameter schema (issue 26)
      expect(list.description).toMatch(/students:read/);
      expect(list.description).toMatch(/page\.cursor is page\[cursor\]/);
      const v1 = tools.find((x) => x.name === 'v1_domains_users_list')!;
      expect(v1.inputSchema).toMatchObject({ required: ['domain_name'], properties: { page: { type: 'integer' }, page_size: { type: 'integer' } } });
    });
  });

  describe('tools/call', () => {
    it('a read tool answers the same JSON as its HTTP operation', async () => {
      const [s] = await createStudents(tokenA, ['read-1@example.test']);
      const viaTool = answer(await client.callTool({ name: 'get_student', arguments: { id: s.id } }));
      const viaHttp = await t.get(`/v2/students/${s.id}`, { token: tokenA });
      expect(viaHttp.status).toBe(200);
      expect(viaTool).toMatchObject({ isError: false, status: 200 });
      expect(viaTool.json).toEqual(viaHttp.body);

      // the API's own spelling of a parameter is accepted too
      const bracket = answer(await client.callTool({ name: 'list_students', arguments: { 'filter[email]': 'read-1@example.test', 'page[size]': 5 } }));
      expect(bracket.json.data.map((x: any) => x.id)).toEqual([s.id]);
      expect(bracket.json.meta.page_size).toBe(5);
      const list = answer(await client.callTool({ name: 'list_students', arguments: { 'filter.email': 'read-1@example.test' } }));
      expect(list.json).toEqual((await t.get('/v2/students/?filter[email]=read-1%40example.test', { token: tokenA })).body);
      expect(list.json.data.map((x: any) => x.id)).toEqual([s.id]);
    });

    it('a /v1 tool answers the same JSON as its HTTP operation', async () => {
      const viaTool = answer(await client.callTool({ name: 'v1_domains_users_list', arguments: { domain_name: orgA.domain_name } }));
      const viaHttp = await t.get(`/v1/domains/${orgA.domain_name}/users`, { token: tokenA });
      expect(viaHttp.status).toBe(200);
      expect(viaTool.json).toEqual(viaHttp.body);
    });

    it('a write tool does the write: /v2 create, /v1 create, then reads agree', async () => {
      const created = answer(await client.callTool({ name: 'create_students', arguments: { data: [{ type: 'students', attributes: { email: 'written@example.test', first_name: 'Tool' } }] } }));
      expect(created).toMatchObject({ isError: false, status: 200 });
      const id = created.json.data[0].id;
      expect((await t.get(`/v2/students/${id}`, { token: tokenA })).body.data.attributes).toMatchObject({ email: 'written@example.test', first_name: 'Tool' });

      const hook = answer(await client.callTool({ name: 'v1_webhooks_create', arguments: { target_url: 'https://example.com/mcp-hook', event_type: 'COURSE_ENROLLMENT' } }));
      expect(hook).toMatchObject({ isError: false, status: 201 });
      expect(hook.json.secret).toMatch(/^whsec_/);
      const { secret: _s, ...rest } = hook.json;
      expect((await t.get(`/v1/webhooks/${hook.json.id}`, { token: tokenA })).body).toEqual(rest);

      // a destructive tool needs a confirmation (CONVENTIONS §21): without it nothing changes
      const unconfirmed = await client.callTool({ name: 'v1_webhooks_destroy', arguments: { webhook_id: hook.json.id } });
      expect(unconfirmed).toMatchObject({ isError: true, _meta: { confirmation_required: true } });
      expect((await t.get(`/v1/webhooks/${hook.json.id}`, { token: tokenA })).status).toBe(200);
      const removed = answer(await client.callTool({ name: 'v1_webhooks_destroy', arguments: { webhook_id: hook.json.id, confirm: true } }));
      expect(removed).toMatchObject({ isError: false, status: 204 });
      expect((await t.get(`/v1/webhooks/${hook.json.id}`, { token: tokenA })).status).toBe(404);
    });

    it("a scope the token lacks: the tool is not listed, and calling it is a tool error with the API's 403 body; nothing is written", async () => {
      const readOnly = await connect(await t.tokenFor(orgA, ['students:read']));
      const names = (await allTools(readOnly)).map((x) => x.name);
      expect(names).toContain('list_students');
      expect(names).toContain('get_student');
      expect(names).not.toContain('create_students');
      expect(names).not.toContain('v1_webhooks_list');
      expect(names).toContain('register_oauth_client'); // public

      const before = (await t.get('/v2/students/?filter[email]=refused@example.test', { token: tokenA })).body.data.length;
      const refused = answer(await readOnly.callTool({ name: 'create_students', arguments: { data: [{ type: 'students', attributes: { email: 'refused@example.test' } }] } }));
      expect(refused).toMatchObject({ isError: true, status: 403 });
      expect(refused.json.errors[0]).toMatchObject({ status: '403', code: 'forbidden' });
      expect(refused.json.errors[0].detail).toMatch(/students:write/);
      expect((await t.get('/v2/students/?filter[email]=refused@example.test', { token: tokenA })).body.data.length).toBe(before);

      const v1 = answer(await readOnly.callTool({ name: 'v1_webhooks_list', arguments: {} }));
      expect(v1).toMatchObject({ isError: true, status: 403 });
      expect(v1.json).toEqual((await t.get('/v1/webhooks', { token: await t.tokenFor(orgA, ['students:read']) })).body);
    });

    it("another organization's ids are a tool error 404, as over HTTP", async () => {
      const [s] = await createStudents(tokenA, ['isolated@example.test']);
      const clientB = await connect(tokenB);
      const res = answer(await clientB.callTool({ name: 'get_student', arguments: { id: s.id } }));
      expect(res).toMatchObject({ isError: true, status: 404 });
      const http = await t.get(`/v2/students/${s.id}`, { token: tokenB });
      expect(http.status).toBe(404);
      expect(errorsOf(res.json)).toEqual(errorsOf(http.body));
      const listB = answer(await clientB.callTool({ name: 'list_students', arguments: { 'filter.email': 'isolated@example.test' } }));
      expect(listB.json.data).toEqual([]);
      const v1 = answer(await clientB.callTool({ name: 'v1_domains_users_list', arguments: { domain_name: orgA.domain_name } }));
      expect(v1).toMatchObject({ isError: true, status: 404 });
    });

    it("invalid arguments: the API's validation error as a tool error; a missing path parameter is refused before any request", async () => {
      const bad = answer(await client.callTool({ name: 'list_students', arguments: { 'page.size': 0 } }));
      expect(bad).toMatchObject({ isError: true, status: 422 });
      expect(errorsOf(bad.json)).toEqual(errorsOf((await t.get('/v2/students/?page[size]=0', { token: tokenA })).body));

      const badBody = answer(await client.callTool({ name: 'create_students', arguments: { data: 'not a list' } }));
      expect(badBody.isError).toBe(true);
      expect(errorsOf(badBody.json)).toEqual(errorsOf((await t.post('/v2/students/', { data: 'not a list' }, { token: tokenA })).body));

      const missing = answer(await client.callTool({ name: 'get_student', arguments: {} }));
      expect(missing).toMatchObject({ isError: true, status: 422 });
      expect(missing.json.errors[0]).toMatchObject({ code: 'validation_error', source: { parameter: 'id' } });

      const v1Missing = answer(await client.callTool({ name: 'v1_webhooks_retrieve', arguments: { webhook_id: { nested: true } } }));
      expect(v1Missing).toMatchObject({ isError: true, status: 400, json: { detail: expect.stringMatching(/webhook_id/) } });
    });

    it('an unknown tool is a JSON-RPC invalid-params error', async () => {
      await expect(client.callTool({ name: 'no_such_tool', arguments: {} })).rejects.toThrow(McpError);
      await expect(client.callTool({ name: 'no_such_tool', arguments: {} })).rejects.toThrow(/Unknown tool/);
    });
  });

  describe('pagination', () => {
    it('/v2 list tools take page[cursor] and return next_cursor until has_more is false', async () => {
      const org = await t.newOrg('MCP paging');
      const token = await t.tokenFor(org);
      const created = await createStudents(token, ['p1@example.test', 'p2@example.test', 'p3@example.test', 'p4@example.test', 'p5@example.test']);
      const c = await connect(token);
      const seen: string[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const page = answer(await c.callTool({ name: 'list_students', arguments: { 'page.size': 2, ...(cursor ? { 'page.cursor': cursor } : {}) } }));
        expect(page.isError).toBe(false);
        const http = await t.get(`/v2/students/?page[size]=2${cursor ? `&page[cursor]=${encodeURIComponent(cursor)}` : ''}`, { token });
        expect(page.json).toEqual(http.body);
        seen.push(...page.json.data.map((x: any) => x.id));
        cursor = page.json.next_cursor ?? undefined;
        expect(page.json.has_more).toBe(!!cursor);
        pages++;
      } while (cursor && pages < 10);
      expect(pages).toBe(3);
      expect(seen.sort()).toEqual(created.map((x) => x.id).sort());
    });

    it('/v1 list tools take page and page_size', async () => {
      const org = await t.newOrg('MCP v1 paging');
      const token = await t.tokenFor(org);
      for (const url of ['https://example.com/a', 'https://example.com/b', 'https://example.com/c']) {
        expect((await t.post('/v1/webhooks', { target_url: url }, { token })).status).toBe(201);
      }
      const c = await connect(token);
      const first = answer(await c.callTool({ name: 'v1_webhooks_list', arguments: { page_size: 2 } }));
      expect(first.json).toMatchObject({ count: 3, previous: null });
      expect(first.json.results).toHaveLength(2);
      expect(first.json.next).toMatch(/page=2/);
      const second = answer(await c.callTool({ name: 'v1_webhooks_list', arguments: { page: 2, page_size: 2 } }));
      expect(second.json).toEqual((await t.get('/v1/webhooks?page=2&page_size=2', { token })).body);
      expect(second.json.results).toHaveLength(1);
      expect(second.json.next).toBeNull();
    });
  });
});
