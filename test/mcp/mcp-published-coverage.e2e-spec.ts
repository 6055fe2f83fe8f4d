import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CreatedOrg } from '../../src/modules/organizations/organizations.service';
import { startTestApp, TestApp } from '../support/app';
import { PublishedSchemas } from '../support/published-schemas';
import { allTools, answer, mcpClient } from './mcp-support';

/** The live /v2 operations the stored /v2 snapshot predates (docs/decisions/live-v2-additions.md), by shape. */
const LIVE_V2 = [
  'GET /v2/assets',
  'POST /v2/assets',
  'GET /v2/assets/{}',
  'PATCH /v2/assets/{}',
  'DELETE /v2/assets/{}',
  'GET /v2/students/{}/relationships/domain-memberships',
  'POST /v2/students/{}/relationships/domain-memberships',
  'GET /v2/students/{}/relationships/domain-memberships/{}',
  'DELETE /v2/students/{}/relationships/domain-memberships/{}',
];

/**
 * Every operation of both published documents (and the live /v2 additions) is reachable through the
 * MCP server: search_operations finds it (with its method and path) and call_operation runs it by the
 * operation_id it answered. Most are listed tools too (`?tools=all`); the token endpoints are not
 * (credentials are the client's, not its token's), and call_operation runs them
 * (docs/decisions/conformance.md). Enumerated against the published documents: a published
 * operation the MCP server cannot reach fails here.
 */
describe('MCP: every published operation is reachable', () => {
  let t: TestApp;
  let org: CreatedOrg;
  let client: Client;
  const published = new PublishedSchemas();
  /** `METHOD shape` -> the operation_id search_operations answered */
  const found = new Map<string, string>();
  const shapeKey = (method: string, path: string) => `${method.toUpperCase()} ${PublishedSchemas.shape(path)}`;
  const call = async (operation_id: string, args: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) =>
    answer(await client.callTool({ name: 'call_operation', arguments: { operation_id, arguments: args, ...extra } }));

  beforeAll(async () => {
    t = await startTestApp();
    org = await t.newOrg('MCP coverage');
    client = await mcpClient(t, await t.tokenFor(org), { all: true });
    for (const iface of ['v1', 'v2']) {
      let cursor: string | undefined;
      do {
        const res = answer(await client.callTool({ name: 'search_operations', arguments: { query: iface, interface: iface, limit: 100, ...(cursor ? { cursor } : {}) } }));
        expect(res.isError).toBe(false);
        for (const o of res.json.operations as { operation_id: string; method: string; path: string }[]) found.set(shapeKey(o.method, o.path), o.operation_id);
        cursor = res.json.next_cursor;
      } while (cursor);
    }
  });
  afterAll(async () => {
    await client?.close();
    await t?.close();
  });

  it('search_operations finds every operation of both published documents and every live /v2 addition', () => {
    const wanted = [...published.ops.map((o) => shapeKey(o.method, o.path)), ...LIVE_V2];
    expect(published.ops.length).toBe(422);
    expect(wanted.filter((k) => !found.has(k))).toEqual([]);
  });

  it('every one but the token endpoints is a listed tool of ?tools=all; those two are call_operation only', async () => {
    const listed = new Set((await allTools(client)).map((x) => x.name));
    const unlisted = [...published.ops.map((o) => shapeKey(o.method, o.path)), ...LIVE_V2].filter((k) => !listed.has(found.get(k)!));
    expect(unlisted.sort()).toEqual(['POST /v2/auth/revoke', 'POST /v2/auth/token']);
  });

  it('call_operation runs them: a token exchange, a revoke, a /v1 and a /v2 read, a live /v2 addition', async () => {
    const created = await t.post('/v2/clients/', { name: 'MCP coverage', scope_preset: 'read-only' }, { token: await t.tokenFor(org) });
    expect(created.status).toBe(201);
    const { client_id, client_secret } = created.body.data.attributes;
    const token = await call(found.get('POST /v2/auth/token')!, { grant_type: 'client_credentials', client_id, client_secret });
    expect([token.isError, token.status, token.json.token_type, typeof token.json.access_token]).toEqual([false, 200, 'Bearer', 'string']);
    const revoke = await call(found.get('POST /v2/auth/revoke')!, { token: 'not-a-token' }, { confirm: true });
    expect([revoke.isError, revoke.status]).toEqual([false, 200]);
    for (const k of ['GET /v1/courses', 'GET /v2/students', 'GET /v2/assets', 'GET /v1/domains']) {
      const res = await call(found.get(k)!);
      expect([k, res.isError, res.status]).toEqual([k, false, 200]);
    }
  });
});
