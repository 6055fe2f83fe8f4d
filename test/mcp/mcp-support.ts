import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { TestApp } from '../support/app';

/**
 * An MCP client of the SDK, connected over Streamable HTTP to the test app's /mcp with a bearer
 * token; `all`: to `/mcp?tools=all` (every operation listed as its own tool, not the curated default).
 */
export async function mcpClient(t: TestApp, token: string, opts: { all?: boolean } = {}): Promise<Client> {
  const client = new Client({ name: 'mcp-e2e', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${t.baseUrl}/mcp${opts.all ? '?tools=all' : ''}`), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
  });
  await client.connect(transport);
  return client;
}

/** A tool's answer: its status and the JSON of its text content. */
export function answer(result: unknown): { isError: boolean; status: number | undefined; json: any; text: string } {
  const r = result as CallToolResult;
  const text = r.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { isError: !!r.isError, status: (r._meta as any)?.http_status, json, text };
}

/** Every page of tools/list (pages of at most 100, `nextCursor`). */
export async function allTools(client: Client): Promise<Tool[]> {
  const tools: Tool[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor === undefined ? undefined : { cursor });
    expect(page.tools.length).toBeLessThanOrEqual(100);
    tools.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return tools;
}
