import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { ToolSpec } from './catalog';

/**
 * The curated default view of tools/list (CONVENTIONS §21, issue 33 item 1) and the two tools that
 * reach everything else. Clients cap what they load (Cursor at 40 tools, VS Code at 128): by default
 * an agent sees the everyday reads and writes, all of them official tool names
 * (../shared/reference/official-mcp/tool-names.json), plus `search_operations` and
 * `call_operation`, which find and run any operation of either interface under the caller's
 * scopes. `/mcp?tools=all` lists every tool (pages of 100).
 */
export const SEARCH_OPERATIONS = 'search_operations';
export const CALL_OPERATION = 'call_operation';

/** 38 everyday tools (with the two meta tools, 40): what the token's scopes allow of them is listed. */
export const DEFAULT_TOOLS: readonly string[] = [
  // students
  'list_students',
  'get_student',
  'create_students',
  'update_students',
  'deactivate_student',
  'anonymize_student',
  'send_password_reset',
  // courses and lessons
  'list_courses',
  'get_course',
  'create_courses',
  'update_courses',
  'list_lessons',
  'get_lesson',
  'create_lessons',
  'update_lessons',
  // publishing
  'list_published_courses',
  'get_published_course',
  'publish_courses',
  // enrollments
  'list_enrollments',
  'get_enrollment',
  'bulk_enroll_students',
  'update_enrollments',
  'complete_enrollments',
  // groups
  'list_groups',
  'get_group',
  'create_groups',
  'add_group_memberships',
  'remove_group_memberships',
  // domains, certificates, analytics, quizzes, content
  'list_domains',
  'get_domain',
  'list_certificates',
  'get_certificate',
  'get_course_analytics',
  'list_course_ratings',
  'list_quizzes',
  'get_quiz',
  'list_web_packages',
  'list_signup_field_values',
];

/** At most this many operations in one search_operations answer (CONVENTIONS §21: pages of at most 100). */
export const SEARCH_PAGE_MAX = 100;
const SEARCH_PAGE_DEFAULT = 10;

export const META_TOOLS: Tool[] = [
  {
    name: SEARCH_OPERATIONS,
    title: 'Search operations',
    description:
      'Find any operation of the API (the /v2 JSON:API and the /v1 API, every one your token may call, beyond the tools listed) by words: ' +
      'a resource ("domain users", "webhooks", "purchases", "access codes"), an action ("refund", "rotate secret") or a path ("/v1/domains/{domain_name}/users"). ' +
      'Each result has its operation_id, method and path, summary, the scopes it needs, its hints and its input_schema: pass the operation_id and the arguments ' +
      'to call_operation. Pages: pass next_cursor back as cursor.',
    inputSchema: {
      type: 'object',
      properties: {
        query: {
          type: 'string',
          minLength: 1,
          maxLength: 500,
          description: 'Words to look for in operation names, summaries, tags and paths (all must match; if none match all, the best partial matches).',
        },
        interface: { type: 'string', enum: ['v1', 'v2'], description: 'Only operations of this interface.' },
        read_only: { type: 'boolean', description: 'true: only reads; false: only writes.' },
        limit: { type: 'integer', minimum: 1, maximum: SEARCH_PAGE_MAX, description: `Operations per page (default ${SEARCH_PAGE_DEFAULT}, at most ${SEARCH_PAGE_MAX}).` },
        cursor: { type: 'string', description: 'The next_cursor of the previous page.' },
      },
      required: ['query'],
      additionalProperties: false,
    },
    outputSchema: {
      type: 'object',
      properties: {
        operations: { type: 'array', items: { type: 'object' } },
        total: { type: 'integer' },
        next_cursor: { type: 'string' },
      },
      required: ['operations', 'total'],
    },
    annotations: { title: 'Search operations', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  },
  {
    name: CALL_OPERATION,
    title: 'Call an operation',
    description:
      'Run any operation of the API by its operation_id (from search_operations: the tool name, or the OpenAPI operationId of GET /openapi.json) ' +
      "with its arguments (path and query parameters and the request body's members, as its input_schema names them), validated against that schema, " +
      "with your token's scopes, exactly as the HTTP operation: the answer is its JSON. Destructive operations need confirm: true; writes take dry_run: true.",
    inputSchema: {
      type: 'object',
      properties: {
        operation_id: { type: 'string', minLength: 1, description: 'The operation_id search_operations answered (e.g. v1_domains_users_list, list_students).' },
        arguments: { type: 'object', description: "The operation's arguments, as its input_schema names them.", additionalProperties: true },
        confirm: { type: 'boolean', description: 'Confirms a destructive operation (delete, deactivate, anonymize, refund) after asking the user.' },
        dry_run: { type: 'boolean', description: 'A write answers what it would answer, with nothing written or emitted.' },
      },
      required: ['operation_id'],
      additionalProperties: false,
    },
    annotations: { title: 'Call an operation', readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  },
];

const words = (text: string) =>
  text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
/** Singular and plural forms match alike (students ~ student, categories ~ category). */
const stem = (w: string) => (w.length > 4 && w.endsWith('ies') ? `${w.slice(0, -3)}y` : w.length > 3 && w.endsWith('s') && !w.endsWith('ss') ? w.slice(0, -1) : w);

/** The words an operation is found by, weighted: its name and path count more than its description. */
function indexOf(t: ToolSpec): { name: Set<string>; path: Set<string>; text: Set<string>; ids: Set<string> } {
  const firstLine = t.description.split('\n')[0];
  return {
    ids: new Set([t.name.toLowerCase(), t.operationId.toLowerCase()]),
    name: new Set([...words(t.name), ...words(t.operationId)].map(stem)),
    path: new Set(words(t.path).map(stem)),
    text: new Set([...words(t.title), ...words(firstLine), ...t.tags.flatMap(words), t.method.toLowerCase(), t.interface].map(stem)),
  };
}
const indexes = new WeakMap<ToolSpec, ReturnType<typeof indexOf>>();

/** The result entry of one operation. */
function entryOf(t: ToolSpec): Record<string, unknown> {
  return {
    operation_id: t.name,
    openapi_operation_id: t.operationId,
    interface: t.interface,
    method: t.method,
    path: t.path,
    summary: t.title,
    scopes: t.rule.isPublic ? [] : (t.rule.scopes ?? []),
    read_only: t.annotations.readOnlyHint,
    destructive: t.annotations.destructiveHint,
    dry_run: t.dryRun,
    paginated: t.paging ?? null,
    input_schema: t.inputSchema,
  };
}

/**
 * search_operations over the operations the caller may call (the caller filtered `allowed` by its
 * scopes). Every word must match the operation's name, path or summary; when no operation has all,
 * the operations with the most words matched. Ranked by weight, then the catalog's order.
 */
export function searchOperations(allowed: ToolSpec[], args: Record<string, unknown>): CallToolResult {
  const bad = (detail: string): CallToolResult => ({ content: [{ type: 'text', text: JSON.stringify({ error: 'invalid_arguments', detail }) }], isError: true });
  const query = args.query;
  if (typeof query !== 'string' || query.trim() === '' || query.length > 500) return bad('query is required: 1 to 500 characters of words to look for.');
  if (args.interface !== undefined && args.interface !== 'v1' && args.interface !== 'v2') return bad('interface is v1 or v2.');
  if (args.read_only !== undefined && typeof args.read_only !== 'boolean') return bad('read_only is a boolean.');
  const limit = args.limit === undefined ? SEARCH_PAGE_DEFAULT : args.limit;
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > SEARCH_PAGE_MAX) return bad(`limit is an integer from 1 to ${SEARCH_PAGE_MAX}.`);
  let offset = 0;
  if (args.cursor !== undefined) {
    if (typeof args.cursor !== 'string' || !/^[0-9]{1,6}$/.test(args.cursor)) return bad('cursor is the next_cursor of a previous answer.');
    offset = Number(args.cursor);
  }

  const exact = query.trim().toLowerCase();
  const wanted = [...new Set(words(query).map(stem))];
  const scored: { t: ToolSpec; matched: number; score: number; order: number }[] = [];
  allowed.forEach((t, order) => {
    if (args.interface !== undefined && t.interface !== args.interface) return;
    if (args.read_only !== undefined && t.annotations.readOnlyHint !== args.read_only) return;
    let ix = indexes.get(t);
    if (!ix) indexes.set(t, (ix = indexOf(t)));
    if (ix.ids.has(exact) || `${t.method} ${t.path}`.toLowerCase() === exact) {
      scored.push({ t, matched: wanted.length + 1, score: 1000, order });
      return;
    }
    let matched = 0;
    let score = 0;
    for (const w of wanted) {
      const s = (ix.name.has(w) ? 4 : 0) + (ix.path.has(w) ? 2 : 0) + (ix.text.has(w) ? 1 : 0);
      if (s > 0) matched++;
      score += s;
    }
    if (matched > 0) scored.push({ t, matched, score, order });
  });
  const best = scored.reduce((m, s) => Math.max(m, s.matched), 0);
  const hits = scored.filter((s) => s.matched === best || s.matched >= wanted.length).sort((a, b) => b.score - a.score || a.t.name.length - b.t.name.length || a.order - b.order);
  const page = hits.slice(offset, offset + limit);
  const out: Record<string, unknown> = { operations: page.map((s) => entryOf(s.t)), total: hits.length };
  if (offset + limit < hits.length) out.next_cursor = String(offset + limit);
  return { content: [{ type: 'text', text: JSON.stringify(out) }], structuredContent: out };
}
