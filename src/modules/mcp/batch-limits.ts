import { DEFAULT_NEGOTIATED_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';

/**
 * The protocol versions whose base protocol has JSON-RPC batches: 2025-03-26 added them (a POST
 * body may be an array of requests and notifications) and 2025-06-18 removed them again; 2024-11-05
 * never had them. Every later version of the SDK's SUPPORTED_PROTOCOL_VERSIONS has none.
 */
export const BATCH_PROTOCOL_VERSIONS: ReadonlySet<string> = new Set(['2025-03-26']);

/** At most this many JSON-RPC messages in one batch (the SDK's own cap is 100). */
export const MAX_BATCH_MESSAGES = 20;

/** A refusal of a POST body before the SDK sees it: HTTP 400 and JSON-RPC -32600 (Invalid Request), as the SDK answers its own. */
export interface BatchRefusal {
  status: 400;
  body: { jsonrpc: '2.0'; error: { code: -32600; message: string }; id: null };
}

const refuse = (message: string): BatchRefusal => ({ status: 400, body: { jsonrpc: '2.0', error: { code: -32600, message: `Invalid Request: ${message}` }, id: null } });

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The protocol version a POST is spoken in. The server is stateless, so it is what the request says:
 * its `MCP-Protocol-Version` header (sent by clients on every request after initialization), else the
 * `protocolVersion` of an initialize request in the body, else the transport specification's
 * assumption for a request without the header (2025-03-26).
 */
export function requestProtocolVersion(header: string | string[] | undefined, body: unknown): string {
  if (typeof header === 'string' && header !== '') return header;
  const messages = Array.isArray(body) ? body : [body];
  const init = messages.find((m) => isObject(m) && m.method === 'initialize' && isObject(m.params) && typeof m.params.protocolVersion === 'string');
  if (init) return (init as { params: { protocolVersion: string } }).params.protocolVersion;
  return DEFAULT_NEGOTIATED_PROTOCOL_VERSION;
}

/**
 * The items a message makes the server work on, counted as the REST API counts a request's: a
 * tools/call counts the longest array among its arguments (the /v2 batch envelope's `data`,
 * /v1 bulk-create's `users`, a wrapped array `body`), at least 1; any other message 1.
 */
export function messageItems(message: unknown): number {
  if (!isObject(message) || message.method !== 'tools/call' || !isObject(message.params) || !isObject(message.params.arguments)) return 1;
  let items = 1;
  for (const v of Object.values(message.params.arguments)) if (Array.isArray(v)) items = Math.max(items, v.length);
  return items;
}

/**
 * The JSON-RPC batch rules of `/mcp` (docs/decisions/mcp.md, "Batches"): a JSON array body is
 * refused where the request's protocol version has no batches (2025-06-18 and later, 2024-11-05);
 * where it has them, one batch does at most the work of one REST request: at most
 * MAX_BATCH_MESSAGES messages, and its messages together at most `maxItems` items (BATCH_MAX_ITEMS,
 * the item limit of a /v2 batch), so 100 create_students calls of 100 items each in one POST are
 * refused instead of creating 10,000 students. A body that is not an array, or an array under a
 * version the SDK does not support (it answers that itself), passes.
 */
export function checkBatch(body: unknown, protocolVersionHeader: string | string[] | undefined, maxItems: number): BatchRefusal | null {
  if (!Array.isArray(body)) return null;
  const version = requestProtocolVersion(protocolVersionHeader, body);
  if (!SUPPORTED_PROTOCOL_VERSIONS.includes(version)) return null;
  if (!BATCH_PROTOCOL_VERSIONS.has(version)) return refuse(`JSON-RPC batches are not supported in protocol version ${version}; send one message per request`);
  if (body.length === 0) return refuse('an empty batch');
  if (body.length > MAX_BATCH_MESSAGES) return refuse(`Batch must not exceed ${MAX_BATCH_MESSAGES} messages`);
  const items = body.reduce((n: number, m) => n + messageItems(m), 0);
  if (body.length > 1 && items > maxItems) return refuse(`the messages of one batch must not carry more than ${maxItems} items together (this one carries ${items}); send them in several requests`);
  return null;
}
