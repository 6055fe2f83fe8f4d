import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { startTestApp, TestApp } from '../support/app';
import type { CreatedOrg } from '../../src/modules/organizations/organizations.service';
import { allTools, answer, mcpClient } from './mcp-support';

/**
 * Write tools take `idempotency_key`, sent as the operation's Idempotency-Key header (CONVENTIONS
 * §14), so an agent retrying a tool call does the work once; answer headers a caller acts on
 * (Idempotent-Replayed, Location, rate limits, Retry-After) are in the result's _meta.http_headers.
 */
describe('MCP tools: Idempotency-Key and answer headers', () => {
  let t: TestApp;
  let org: CreatedOrg;
  let client: Client;
  const headersOf = (r: unknown) => ((r as CallToolResult)._meta as any)?.http_headers ?? {};

  beforeAll(async () => {
    t = await startTestApp();
    org = await t.newOrg('MCP idempotency');
    client = await mcpClient(t, await t.tokenFor(org), { all: true });
  });
  afterAll(async () => {
    await client.close();
    await t.close();
  });

  it('every write tool declares idempotency_key; reads do not', async () => {
    const tools = await allTools(client);
    const create = tools.find((x) => x.name === 'create_students')!;
    expect((create.inputSchema.properties as any).idempotency_key).toMatchObject({ type: 'string', maxLength: 255 });
    expect((tools.find((x) => x.name === 'list_students')!.inputSchema.properties as any).idempotency_key).toBeUndefined();
    expect(tools.filter((x) => x.annotations?.readOnlyHint === false && x.name !== 'call_operation').every((x) => 'idempotency_key' in (x.inputSchema.properties as object))).toBe(true);
  });

  it('a repeated call with the same key answers the first result and creates once; another body with the key is 422', async () => {
    const args = { data: [{ type: 'students', attributes: { email: 'idem-mcp@example.test', first_name: 'I', last_name: 'D' } }], idempotency_key: 'mcp-retry-1' };
    const first = await client.callTool({ name: 'create_students', arguments: args });
    const again = await client.callTool({ name: 'create_students', arguments: args });
    expect([answer(first).status, answer(again).status]).toEqual([200, 200]);
    expect(answer(again).json.data[0].id).toBe(answer(first).json.data[0].id);
    expect(headersOf(first)['idempotent-replayed']).toBeUndefined();
    expect(headersOf(again)['idempotent-replayed']).toBe('true');
    const list = answer(await client.callTool({ name: 'list_students', arguments: { 'filter.email': 'idem-mcp@example.test' } }));
    expect(list.json.data.map((s: any) => s.attributes.email)).toEqual(['idem-mcp@example.test']);

    const other = answer(await client.callTool({ name: 'create_students', arguments: { ...args, data: [{ ...args.data[0], attributes: { ...args.data[0].attributes, first_name: 'X' } }] } }));
    expect([other.isError, other.status, other.json.errors[0].code]).toEqual([true, 422, 'validation_error']);
  });

  it('the key is never a body member, and a bad key is an argument error with nothing sent', async () => {
    const hook = answer(await client.callTool({ name: 'v1_webhooks_create', arguments: { target_url: 'https://hooks.example.com/i', event_type: 'COURSE_COMPLETION', idempotency_key: 'hook-1' } }));
    expect(hook.status).toBe(201);
    expect(hook.json).not.toHaveProperty('idempotency_key');
    const bad = answer(await client.callTool({ name: 'create_students', arguments: { data: [], idempotency_key: 'k'.repeat(256) } }));
    expect([bad.isError, bad.status, bad.json.errors[0].source.parameter]).toEqual([true, 422, 'idempotency_key']);
  });
});
