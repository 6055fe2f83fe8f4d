import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import type { CreatedOrg } from '../../src/modules/organizations/organizations.service';
import { MAX_BATCH_MESSAGES } from '../../src/modules/mcp/batch-limits';
import { startTestApp, TestApp } from '../support/app';
import { answer, mcpClient } from './mcp-support';

/**
 * JSON-RPC batches at /mcp (issue 25 item 12; docs/decisions/mcp.md "Batches"): a JSON array body is
 * refused (HTTP 400, JSON-RPC -32600) under a protocol version without batches (2025-06-18 and
 * later), and under 2025-03-26 one batch does at most the work of one REST request (messages and
 * items capped). Batches are raw HTTP (the SDK's client never sends one); the rest is the SDK's client.
 */
describe('MCP server: JSON-RPC batches', () => {
  let t: TestApp;
  let org: CreatedOrg;
  let token: string;
  let client: Client;

  /** the database is this file's own: every user is one of its students */
  const students = async () => (await t.ds.query(`SELECT count(*)::int AS n FROM users`))[0].n as number;
  let seq = 0;
  const createCall = (n: number, id: number) => ({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name: 'create_students', arguments: { data: Array.from({ length: n }, () => ({ type: 'students', attributes: { email: `b${++seq}@x.test` } })) } },
  });
  const post = (body: unknown, version?: string) =>
    t.request('POST', '/mcp', {
      token,
      body,
      headers: { accept: 'application/json, text/event-stream', ...(version ? { 'mcp-protocol-version': version } : {}) },
    });
  const invalidRequest = { jsonrpc: '2.0', error: { code: -32600, message: expect.stringMatching(/^Invalid Request: /) }, id: null };

  beforeAll(async () => {
    t = await startTestApp();
    org = await t.newOrg('MCP batches');
    token = await t.tokenFor(org);
    client = await mcpClient(t, token);
  });
  afterAll(async () => {
    await client?.close();
    await t?.close();
  });

  it('under the version the SDK client negotiates (and 2025-06-18) a batch is 400 / -32600 and nothing runs', async () => {
    const negotiated = (client.transport as StreamableHTTPClientTransport).protocolVersion;
    expect(negotiated).toBe(LATEST_PROTOCOL_VERSION);
    const before = await students();
    for (const version of [negotiated!, '2025-06-18']) {
      const res = await post([createCall(100, 1), createCall(100, 2)], version);
      expect([res.status, res.body]).toEqual([400, invalidRequest]);
      expect(res.body.error.message).toContain(`not supported in protocol version ${version}`);
      // two harmless messages are refused alike: batches do not exist in these versions
      const list = await post(
        [
          { jsonrpc: '2.0', id: 1, method: 'tools/list' },
          { jsonrpc: '2.0', id: 2, method: 'ping' },
        ],
        version,
      );
      expect([list.status, list.body]).toEqual([400, invalidRequest]);
    }
    // an initialize asking for 2025-06-18 inside a batch, without the header
    const init = await post([
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } } },
      { jsonrpc: '2.0', id: 2, method: 'ping' },
    ]);
    expect([init.status, init.body]).toEqual([400, invalidRequest]);
    expect(await students()).toBe(before);
    // one message of 100 items is one REST request's worth: still served
    const one = await post(createCall(100, 3), '2025-06-18');
    expect(one.status).toBe(200);
    expect(answer(one.body.result).status).toBe(200);
    expect(await students()).toBe(before + 100);
    // and the SDK's client keeps working
    expect(answer(await client.callTool({ name: 'list_students', arguments: { 'page.size': 1 } })).status).toBe(200);
  });

  it('under 2025-03-26 (and without the header, which means 2025-03-26) a batch is served within the REST limits', async () => {
    const before = await students();
    // within the limits: two calls of 10 items, answered as an array of two responses
    const ok = await post([createCall(10, 1), createCall(10, 2)]);
    expect(ok.status).toBe(200);
    expect(ok.body.map((r: any) => [r.id, answer(r.result).status])).toEqual([
      [1, 200],
      [2, 200],
    ]);
    expect(await students()).toBe(before + 20);
    const ok2 = await post([createCall(50, 1), createCall(50, 2)], '2025-03-26');
    expect(ok2.status).toBe(200);
    expect(await students()).toBe(before + 120);
    // more items together than one /v2 batch may carry (100): refused whole, nothing created
    const tooMany = await post([createCall(60, 1), createCall(41, 2)], '2025-03-26');
    expect([tooMany.status, tooMany.body]).toEqual([400, invalidRequest]);
    expect(tooMany.body.error.message).toContain('101');
    // the report's request: 100 calls of 100 items (10,000 students) in one POST, under 1 MiB
    const hundredByHundred = await post(Array.from({ length: 100 }, (_, i) => createCall(100, i + 1)));
    expect([hundredByHundred.status, hundredByHundred.body]).toEqual([400, invalidRequest]);
    // more messages than MAX_BATCH_MESSAGES, however light
    const pings = await post(
      Array.from({ length: MAX_BATCH_MESSAGES + 1 }, (_, i) => ({ jsonrpc: '2.0', id: i + 1, method: 'ping' })),
      '2025-03-26',
    );
    expect([pings.status, pings.body]).toEqual([400, invalidRequest]);
    const fewPings = await post(
      Array.from({ length: MAX_BATCH_MESSAGES }, (_, i) => ({ jsonrpc: '2.0', id: i + 1, method: 'ping' })),
      '2025-03-26',
    );
    expect([fewPings.status, fewPings.body.length]).toEqual([200, MAX_BATCH_MESSAGES]);
    expect((await post([], '2025-03-26')).status).toBe(400);
    expect(await students()).toBe(before + 120);
  });

  it('a batch without a token is still the 401 challenge', async () => {
    const res = await t.request('POST', '/mcp', { body: [createCall(1, 1)], headers: { accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' } });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/resource_metadata=/);
  });
});
