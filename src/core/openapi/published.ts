import { PUBLISHED_JSON } from './published.generated';

/**
 * The published documents' operations and component schemas (test/reference/, converted to
 * OpenAPI 3.1 and renamed `v1.<Name>` / `v2.<Name>` by scripts/openapi-published.js), parsed once
 * per process and never changed: the document completion clones what it puts in a document.
 */
export type JsonSchema = Record<string, any>;

export interface PublishedOperation {
  method: string;
  path: string;
  operationId: string;
  tags?: string[];
  summary?: string;
  description?: string;
  parameters?: { name: string; in: string; required?: boolean; description?: string; schema?: JsonSchema; [k: string]: unknown }[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }>; required?: boolean; description?: string };
  responses?: Record<string, { description?: string; content?: Record<string, { schema?: JsonSchema }> }>;
}

export interface PublishedDocument {
  operations: PublishedOperation[];
  schemas: Record<string, JsonSchema>;
  tags: { name: string; description?: string }[];
}

export interface Published {
  v1: PublishedDocument;
  v2: PublishedDocument;
  /** every operation by routeKey (method + path template without parameter names or trailing slash) */
  byRoute: Map<string, { iface: 'v1' | 'v2'; op: PublishedOperation }>;
  /** every operation's normalizedSegments and first tag */
  routes: { segments: string[]; tag?: string }[];
}

let cache: Published | undefined;

export function published(): Published {
  if (cache) return cache;
  const docs = JSON.parse(PUBLISHED_JSON) as { v1: PublishedDocument; v2: PublishedDocument };
  const byRoute = new Map<string, { iface: 'v1' | 'v2'; op: PublishedOperation }>();
  const routes: Published['routes'] = [];
  for (const iface of ['v1', 'v2'] as const) {
    for (const op of docs[iface].operations) {
      byRoute.set(routeKey(op.method, op.path), { iface, op });
      routes.push({ segments: normalizedSegments(op.path), tag: op.tags?.[0] });
    }
  }
  // shared by every document built in this process (the tests build many): frozen, so a change is an error, not a leak
  deepFreeze(docs);
  return (cache = { ...docs, byRoute, routes });
}

/** `GET /v1/domains/{}/users`: the method and the path with its parameter names and trailing slash left out. */
export function routeKey(method: string, path: string): string {
  return `${method.toUpperCase()} ${path.replace(/\{[^}]+\}/g, '{}').replace(/\/+$/, '')}`;
}

/** `['v1', 'domains', '{}', 'users']` */
export function normalizedSegments(path: string): string[] {
  return path
    .replace(/\{[^}]+\}/g, '{}')
    .replace(/\/+$/, '')
    .split('/')
    .filter(Boolean);
}

function deepFreeze(o: unknown): void {
  if (!o || typeof o !== 'object' || Object.isFrozen(o)) return;
  Object.freeze(o);
  for (const v of Object.values(o)) deepFreeze(v);
}
