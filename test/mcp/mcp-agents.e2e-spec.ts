import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CreatedOrg } from '../../src/modules/organizations/organizations.service';
import { startTestApp, TestApp } from '../support/app';
import { allTools, answer, mcpClient } from './mcp-support';

/**
 * MCP for agents (CONVENTIONS §21, issue 33; docs/decisions/mcp.md): a curated default tool list of
 * at most 40 with search_operations and call_operation reaching every operation of both interfaces
 * under the caller's scopes; the full list on request, in pages of at most 100; complete input
 * schemas, hints and output schemas; destructive tools that change nothing without a confirmation.
 * Driven by the SDK's own client (which validates every structuredContent against the tool's
 * outputSchema).
 */
describe('MCP for agents', () => {
  let t: TestApp;
  let org: CreatedOrg;
  let token: string;
  let client: Client;
  let everything: Client;
  let all: Tool[];
  let doc: any;
  const clients: Client[] = [];
  const connect = async (tok: string, opts: { all?: boolean } = {}) => {
    const c = await mcpClient(t, tok, opts);
    clients.push(c);
    return c;
  };
  const official = new Set<string>(JSON.parse(readFileSync(join(__dirname, '../reference/official-mcp/tool-names.json'), 'utf8')));

  beforeAll(async () => {
    t = await startTestApp();
    org = await t.newOrg('MCP agents');
    token = await t.tokenFor(org); // every scope, as create-org and the OAuth flow give
    client = await connect(token);
    everything = await connect(token, { all: true });
    all = await allTools(everything);
    doc = (await t.get('/openapi.json')).body;
  });
  afterAll(async () => {
    for (const c of clients) await c.close();
    await t.close();
  });

  const served = () =>
    Object.entries<any>(doc.paths)
      .filter(([p]) => p.startsWith('/v1/') || p.startsWith('/v2/'))
      .flatMap(([p, item]) =>
        Object.keys(item)
          .filter((m) => ['get', 'post', 'put', 'patch', 'delete'].includes(m))
          .map((m) => ({ method: m.toUpperCase(), path: p, op: item[m] })),
      )
      .filter((o) => !/^\/v2\/auth\//.test(o.path));

  it('with a full-scope token the default list is at most 40 tools: the meta tools and official everyday names, in one page', async () => {
    const page = await client.listTools();
    expect(page.nextCursor).toBeUndefined();
    const names = page.tools.map((x) => x.name);
    expect(names.length).toBeLessThanOrEqual(40);
    expect(names.slice(0, 2)).toEqual(['search_operations', 'call_operation']);
    for (const n of names.slice(2)) expect([n, official.has(n)]).toEqual([n, true]);
    expect(names).toEqual(expect.arrayContaining(['list_students', 'create_students', 'deactivate_student', 'bulk_enroll_students', 'list_courses']));
  });

  it('?tools=all lists every operation as its own tool, in pages of at most 100 (a bad cursor is invalid params)', async () => {
    expect(all.length).toBe(served().length + 2);
    expect(new Set(all.map((x) => x.name)).size).toBe(all.length);
    const first = await everything.listTools();
    expect(first.tools).toHaveLength(100);
    expect(first.nextCursor).toBeDefined();
    await expect(everything.listTools({ cursor: 'nope' })).rejects.toThrow(/cursor/i);
  });

  it('every tool has the three hints; deletes, deactivate and anonymize are destructive and take confirm; writes take dry_run', () => {
    for (const tool of all) {
      const a = tool.annotations!;
      expect([tool.name, typeof a.readOnlyHint, typeof a.destructiveHint, typeof a.idempotentHint]).toEqual([tool.name, 'boolean', 'boolean', 'boolean']);
    }
    const byName = new Map(all.map((x) => [x.name, x]));
    for (const n of ['deactivate_student', 'anonymize_student', 'v1_webhooks_destroy', 'delete_groups']) {
      const tool = byName.get(n)!;
      expect([n, tool.annotations!.destructiveHint, 'confirm' in (tool.inputSchema.properties as object)]).toEqual([n, true, true]);
    }
    expect(byName.get('create_students')!.annotations!.destructiveHint).toBe(false);
    for (const tool of all.filter((x) => x.annotations!.readOnlyHint === false && !['call_operation', 'register_oauth_client'].includes(x.name))) {
      expect([tool.name, (tool.inputSchema.properties as any).dry_run?.type]).toEqual([tool.name, 'boolean']);
    }
  });

  it('a /v1 create lists every member of its body, with the published descriptions', () => {
    const create = all.find((x) => x.name === 'v1_courses_create')!;
    const body = doc.paths['/v1/courses'].post.requestBody.content['application/json'].schema;
    const members = Object.keys(body.properties ?? {}).filter((m) => body.properties[m].readOnly !== true);
    expect(members.length).toBeGreaterThan(3);
    for (const m of members) expect([m, (create.inputSchema.properties as any)[m] !== undefined]).toEqual([m, true]);
    expect((create.inputSchema.properties as any).title.description).toBe(body.properties.title.description);
    expect(create.inputSchema.required).toEqual(expect.arrayContaining(['title']));
  });

  /** Reads of a singleton the test's organization has not set: 404 is their answer (an organization without single sign-on has no configuration to read). */
  const UNSET = new Map([['v1_organization_sso_list', 404]]);
  const okStatus = (name: string) => UNSET.get(name) ?? 200;

  it('read tools answer structuredContent that their outputSchema (the /openapi.json success schema) accepts', async () => {
    // the SDK's client validates structuredContent against the listed outputSchema, and refuses a
    // tool with an outputSchema that answers none: every list tool without parameters, called
    const lists = all.filter((x) => x.annotations!.readOnlyHint && !(x.inputSchema.required ?? []).length && x.outputSchema);
    expect(lists.length).toBeGreaterThan(20);
    for (const tool of lists) {
      const res = await everything.callTool({ name: tool.name, arguments: {} });
      const a = answer(res);
      expect([tool.name, a.status]).toEqual([tool.name, okStatus(tool.name)]);
      if (a.status === 200) expect([tool.name, res.structuredContent]).toEqual([tool.name, a.json]);
    }
  });

  it('search_operations + call_operation reach every operation of both interfaces', async () => {
    const tools = all.filter((x) => x.name !== 'search_operations' && x.name !== 'call_operation');
    expect(tools.length).toBeGreaterThan(300);
    let dispatched = 0;
    for (const tool of tools) {
      const found = await client.callTool({ name: 'search_operations', arguments: { query: tool.name, limit: 1 } });
      const op = (found.structuredContent as any).operations[0];
      expect([tool.name, op?.operation_id]).toEqual([tool.name, tool.name]);
      // every path parameter a value that names nothing; writes as dry runs, destructive ones confirmed
      const args: Record<string, unknown> = {};
      for (const p of op.input_schema.required ?? [])
        if (op.input_schema.properties[p]?.type !== 'array' && op.input_schema.properties[p]?.type !== 'object') args[p] = 'none0000000000000000000000000';
      if (op.dry_run) args.dry_run = true;
      const res = await client.callTool({ name: 'call_operation', arguments: { operation_id: op.operation_id, arguments: args, confirm: true } });
      const text = (res.content as any[])[0].text as string;
      expect([tool.name, text]).not.toEqual([tool.name, expect.stringMatching(/No operation|operation_id is required/)]);
      if (typeof (res._meta as any)?.http_status === 'number') dispatched++;
      // a read without parameters really ran: its answer is the HTTP operation's
      if (op.read_only && !(op.input_schema.required ?? []).length) expect([tool.name, (res._meta as any).http_status]).toEqual([tool.name, okStatus(tool.name)]);
    }
    expect(dispatched).toBe(tools.length);
    // the OpenAPI operationId names an operation as well
    const byOpenApi = await client.callTool({ name: 'search_operations', arguments: { query: 'webhooks list', interface: 'v1' } });
    const hook = (byOpenApi.structuredContent as any).operations.find((o: any) => o.method === 'GET' && o.path === '/v1/webhooks');
    expect(hook).toBeDefined();
    const listed = answer(await client.callTool({ name: 'call_operation', arguments: { operation_id: hook.openapi_operation_id } }));
    expect(listed).toMatchObject({ isError: false, status: 200 });
  }, 240_000);

  it("search_operations pages (at most 100) and keeps to the token's scopes; call_operation validates arguments and keeps the guard", async () => {
    const paged = await client.callTool({ name: 'search_operations', arguments: { query: 'v1', limit: 100 } });
    const p1 = paged.structuredContent as any;
    expect(p1.operations).toHaveLength(100);
    expect(p1.total).toBeGreaterThan(100);
    const p2 = (await client.callTool({ name: 'search_operations', arguments: { query: 'v1', limit: 100, cursor: p1.next_cursor } })).structuredContent as any;
    expect(p2.operations[0].operation_id).not.toBe(p1.operations[0].operation_id);
    expect((await client.callTool({ name: 'search_operations', arguments: { query: 'v1', limit: 101 } })).isError).toBe(true);

    const reader = await connect(await t.tokenFor(org, ['students:read']));
    const found = (await reader.callTool({ name: 'search_operations', arguments: { query: 'students', limit: 100 } })).structuredContent as any;
    expect(found.operations.length).toBeGreaterThan(0);
    expect(found.operations.every((o: any) => o.read_only || o.scopes.length === 0)).toBe(true);
    const refused = answer(
      await reader.callTool({ name: 'call_operation', arguments: { operation_id: 'create_students', arguments: { data: [{ type: 'students', attributes: { email: 'nope@example.test' } }] } } }),
    );
    expect(refused).toMatchObject({ isError: true, status: 403 });
    expect((await t.get('/v2/students/?filter[email]=nope@example.test', { token })).body.data).toEqual([]);

    const invalid = answer(
      await client.callTool({ name: 'call_operation', arguments: { operation_id: 'v1_courses_create', arguments: { short_description: 'no title', enforce_sequential_navigation: false } } }),
    );
    expect(invalid).toMatchObject({ isError: true, status: 400 });
    expect(invalid.json.detail).toMatch(/title/);
    const unknown = answer(await client.callTool({ name: 'call_operation', arguments: { operation_id: 'no_such_operation' } }));
    expect(unknown.isError).toBe(true);
  });

  it('a destructive tool without confirmation changes nothing, with confirm: true it runs (directly and through call_operation)', async () => {
    const created = answer(
      await client.callTool({
        name: 'create_students',
        arguments: {
          data: [
            { type: 'students', attributes: { email: 'confirm-me@example.test' } },
            { type: 'students', attributes: { email: 'confirm-too@example.test' } },
          ],
        },
      }),
    );
    const [a, b] = created.json.data.map((s: any) => s.id);
    const active = async (id: string) => !(await t.get(`/v2/students/${id}`, { token })).body.data.attributes.is_inactive;

    for (const call of [
      { name: 'deactivate_student', arguments: { id: a } },
      { name: 'deactivate_student', arguments: { id: a, confirm: false } },
      { name: 'call_operation', arguments: { operation_id: 'deactivate_student', arguments: { id: a } } },
      { name: 'anonymize_student', arguments: { id: a } },
    ]) {
      const res = await client.callTool(call);
      expect([call, res.isError, (res._meta as any)?.confirmation_required]).toEqual([call, true, true]);
      expect(JSON.parse((res.content as any[])[0].text).errors[0].code).toBe('confirmation_required');
    }
    expect(await active(a)).toBe(true);
    expect((await t.get(`/v2/students/${a}`, { token })).body.data.attributes.email).toBe('confirm-me@example.test');

    expect(answer(await client.callTool({ name: 'deactivate_student', arguments: { id: a, confirm: true } })).isError).toBe(false);
    expect(await active(a)).toBe(false);
    expect(answer(await client.callTool({ name: 'call_operation', arguments: { operation_id: 'deactivate_student', arguments: { id: b }, confirm: true } })).isError).toBe(false);
    expect(await active(b)).toBe(false);
  });

  it('a client that declares elicitation is asked to confirm: declined changes nothing, accepted runs', async () => {
    const c = new Client({ name: 'eliciting', version: '1.0.0' }, { capabilities: { elicitation: {} } });
    const asked: string[] = [];
    let accept = false;
    c.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params.message);
      return accept ? { action: 'accept', content: { confirm: true } } : { action: 'decline' };
    });
    await c.connect(new StreamableHTTPClientTransport(new URL(`${t.baseUrl}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
    clients.push(c);
    const created = answer(await c.callTool({ name: 'create_students', arguments: { data: [{ type: 'students', attributes: { email: 'elicit-me@example.test' } }] } }));
    const id = created.json.data[0].id;
    const inactive = async () => (await t.get(`/v2/students/${id}`, { token })).body.data.attributes.is_inactive;

    const declined = await c.callTool({ name: 'deactivate_student', arguments: { id } });
    expect([declined.isError, (declined._meta as any).confirmation_declined]).toEqual([true, true]);
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatch(/deactivate/i);
    expect(await inactive()).toBe(false);

    accept = true;
    const done = await c.callTool({ name: 'call_operation', arguments: { operation_id: 'deactivate_student', arguments: { id } } });
    expect(done.isError).toBe(false);
    expect(asked).toHaveLength(2);
    expect(await inactive()).toBe(true);
    // a dry run or an explicit confirm asks nothing
    await c.callTool({ name: 'anonymize_student', arguments: { id, dry_run: true } });
    expect(asked).toHaveLength(2);
  });
});
