import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { DiscoveryService } from '@nestjs/core';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { startTestApp, TestApp } from '../support/app';
import type { CreatedOrg } from '../../src/modules/organizations/organizations.service';
import { McpService } from '../../src/modules/mcp/mcp.service';
import { allTools, answer, mcpClient } from './mcp-support';

/**
 * Every tool whose operation takes a request body has a real input schema (the body's members,
 * generated from the DTOs' validation rules, core/http/request-schemas.ts), and /docs lists the
 * tools from the same catalog tools/list answers.
 */
describe('MCP tools: input schemas and the tool list under /docs', () => {
  let t: TestApp;
  let org: CreatedOrg;
  let token: string;
  let client: Client;
  let doc: any;

  beforeAll(async () => {
    t = await startTestApp();
    org = await t.newOrg('MCP schemas');
    token = await t.tokenFor(org);
    client = await mcpClient(t, token, { all: true });
    doc = (await t.get('/openapi.json')).body;
  });
  afterAll(async () => {
    await client.close();
    await t.close();
  });

  /** `<Controller>_<method>` of every route handler with a whole-body @Body() parameter. */
  function operationsTakingABody(): Set<string> {
    const out = new Set<string>();
    for (const w of t.app.get(DiscoveryService).getControllers()) {
      const cls = w.metatype as Function | undefined;
      if (typeof cls !== 'function') continue;
      for (const method of Object.getOwnPropertyNames(cls.prototype)) {
        const args = Reflect.getMetadata(ROUTE_ARGS_METADATA, cls, method) as Record<string, { data?: unknown }> | undefined;
        if (Object.entries(args ?? {}).some(([k, a]) => k.split(':')[0] === String(RouteParamtypes.BODY) && a.data === undefined)) out.add(`${cls.name}_${method}`);
      }
    }
    return out;
  }

  it('every tool whose operation has a request body has a non-empty input schema for it', async () => {
    const withBody = operationsTakingABody();
    const tools = await t.app.get(McpService).tools();
    const problems: string[] = [];
    let checked = 0;
    for (const tool of tools) {
      const item = doc.paths[tool.path] ?? doc.paths[tool.path.replace(/\/$/, '')];
      const op = item?.[tool.method.toLowerCase()];
      expect(op).toBeDefined();
      if (!op.requestBody && !withBody.has(op.operationId)) continue;
      if (!op.requestBody) {
        problems.push(`${tool.name}: the operation reads a body the document does not describe`);
        continue;
      }
      checked++;
      const params = new Set([...tool.pathParams, ...tool.queryParams].map((p) => tool.argOf[p] ?? p));
      const props = tool.inputSchema.properties as Record<string, any>;
      const body = tool.body === 'wrapped' ? props.body : { properties: Object.fromEntries(Object.entries(props).filter(([k]) => !params.has(k))) };
      const members = body.properties ?? body.oneOf?.find((s: any) => s.properties)?.properties ?? {};
      if (!Object.keys(members).length) {
        problems.push(`${tool.name}: no body members`);
        continue;
      }
      // a /v2 batch: its items have their members too (type, and the item's own)
      const data = members.data;
      if (data?.type === 'array' && !(Object.keys(data.items?.properties ?? {}).length > 1)) problems.push(`${tool.name}: data items without members`);
      if (data?.type === 'array' && data.items?.properties?.attributes && !Object.keys(data.items.properties.attributes.properties ?? {}).length) {
        problems.push(`${tool.name}: data items' attributes without members`);
      }
    }
    expect(problems).toEqual([]);
    expect(checked).toBeGreaterThan(150);
  });

  it('describes the bodies the issue named: /v1 webhooks, /v2 group batches, registration', async () => {
    const tools = new Map((await allTools(client)).map((x) => [x.name, x]));
    const webhook = tools.get('v1_webhooks_create')!.inputSchema.properties as Record<string, any>;
    expect(Object.keys(webhook)).toEqual(expect.arrayContaining(['target_url', 'event_type', 'active', 'additional_headers']));
    // the published WebHookRequest: event_type is oneOf [EventTypeEnum, BlankEnum, NullEnum] (issue 26: the published body schemas)
    const enums = (x: any): unknown[] => [...(x?.enum ?? []), ...[...(x?.oneOf ?? []), ...(x?.anyOf ?? [])].flatMap(enums)];
    expect(enums(webhook.event_type)).toContain('COURSE_COMPLETION');
    expect(Object.keys(tools.get('v1_webhooks_partial_update')!.inputSchema.properties as object)).toEqual(expect.arrayContaining(['webhook_id', 'target_url', 'event_type']));

    for (const name of ['create_groups', 'update_groups', 'delete_groups']) {
      const data = (tools.get(name)!.inputSchema.properties as any).data;
      const type = data.items.properties.type;
      expect([name, data.type, type.enum ?? [type.const]]).toEqual([name, 'array', ['groups']]);
      expect(data.items.required).toContain('type');
    }
    const create = (tools.get('create_groups')!.inputSchema.properties as any).data.items.properties.attributes;
    expect(create.properties.name).toMatchObject({ type: 'string', maxLength: 100 });
    expect(create.required).toEqual(['name']);
    expect((tools.get('update_groups')!.inputSchema.properties as any).data.items.properties.id).toMatchObject({ type: 'string' });

    const register = tools.get('register_oauth_client')!.inputSchema as any;
    // the published RFC 7591 body requires client_name only (issue 26: the published body schemas)
    expect(register.required).toEqual(expect.arrayContaining(['client_name']));
    expect(Object.keys(register.properties)).toEqual(expect.arrayContaining(['client_name', 'redirect_uris']));
    // the published schema declares token_endpoint_auth_method as a plain string (our validator's enum is not in it)
    expect(register.properties.token_endpoint_auth_method).toMatchObject({ type: 'string' });
  });

  it('a tool called with the members its schema describes does what the operation does', async () => {
    const schema = (await allTools(client)).find((x) => x.name === 'create_groups')!.inputSchema as any;
    const type = schema.properties.data.items.properties.type; // the published item schema says `const`
    const item = { type: type.const ?? type.enum[0], attributes: { name: 'Schema-made group' } };
    const res = answer(await client.callTool({ name: 'create_groups', arguments: { data: [item] } }));
    expect([res.status, res.text]).toEqual([200, expect.stringContaining('Schema-made group')]);
    const hook = answer(await client.callTool({ name: 'v1_webhooks_create', arguments: { target_url: 'https://hooks.example.com/x', event_type: 'COURSE_COMPLETION', active: false } }));
    expect([hook.isError, hook.status, hook.json.event_type]).toEqual([false, 201, 'COURSE_COMPLETION']);
  });

  it('/docs links the tool list, which lists every tool of the catalog with its operation and scopes', async () => {
    expect(doc.info.description).toContain('/docs/mcp-tools');
    const tools = await t.app.get(McpService).tools();
    const json = await t.get('/docs/mcp-tools.json');
    expect(json.status).toBe(200);
    expect(json.body.count).toBe(tools.length);
    expect(json.body.tools.map((x: any) => x.name)).toEqual(tools.map((x) => x.name));
    const listStudents = json.body.tools.find((x: any) => x.name === 'list_students');
    expect(listStudents).toMatchObject({ method: 'GET', path: '/v2/students/', interface: 'v2', paging: 'cursor', public: false });
    expect(listStudents.scopes).toContain('students:read');
    expect(listStudents.arguments.map((a: any) => a.name)).toEqual(expect.arrayContaining(['page.size', 'page.cursor']));

    const html = await t.get('/docs/mcp-tools');
    expect(html.status).toBe(200);
    expect(html.headers.get('content-type')).toMatch(/^text\/html/);
    for (const tool of tools) expect(html.text).toContain(`<tr id="${tool.name}">`);
    expect(html.text).toContain('<code>GET /v2/students/</code>');
    // no token needed, like /docs itself; a token's scopes do not narrow the documentation
    const narrow = await t.tokenFor(org, ['courses:read']);
    expect((await t.get('/docs/mcp-tools.json', { token: narrow })).body.count).toBe(tools.length);
  });
});
