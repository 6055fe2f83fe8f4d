import type { FastifyRequest } from 'fastify';
import { published } from '../openapi/published';
import { ApiError } from '../http/api-error';

/**
 * Every operation of the published documents (test/reference/, through core/openapi/published.ts) as
 * `METHOD` + its path segments, `{}` for a parameter: built once per process.
 */
let templates: { method: string; segments: string[] }[] | undefined;

function publishedTemplates(): { method: string; segments: string[] }[] {
  if (templates) return templates;
  const p = published();
  templates = [...p.v1.operations, ...p.v2.operations].map((op) => ({
    method: op.method.toUpperCase(),
    segments: op.path
      .replace(/\{[^}]+\}/g, '{}')
      .replace(/\/+$/, '')
      .split('/')
      .filter(Boolean),
  }));
  return templates;
}

/** The request's path segments as the router sees them: no query string, decoded, no trailing slash. */
function segmentsOf(url: string): string[] {
  const path = url.split('?', 1)[0].replace(/^\/+/, '').replace(/\/+$/, '');
  return path.split('/').map((s) => {
    try {
      return decodeURIComponent(s);
    } catch {
      return s;
    }
  });
}

/** Whether `METHOD path` is an operation of either published document (a parameter matches any one segment). */
/**
 * Fastify's router matches a path parameter of at most this many characters (its `maxParamLength`
 * default): a longer id reaches no route although its operation is served, and is an unknown id (404),
 * not an operation we lack.
 */
const ROUTER_MAX_PARAM_LENGTH = 100;

export function isPublishedOperation(method: string, url: string): boolean {
  const segs = segmentsOf(url);
  const m = method.toUpperCase() === 'HEAD' ? 'GET' : method.toUpperCase();
  return publishedTemplates().some(
    (t) => t.method === m && t.segments.length === segs.length && t.segments.every((s, i) => (s === '{}' ? segs[i] !== '' && segs[i].length <= ROUTER_MAX_PARAM_LENGTH : s === segs[i])),
  );
}

/**
 * A request that matched no route (Fastify's not-found handler, or only the /v1 catch-all) for an
 * operation the published documents describe is an operation not built here: 501 in the interface's
 * envelope (issue 29 point 6), so a client can tell "not built" from "no such object" (an unknown id on
 * a served route is still the handler's 404). `isCatchAll`: the request fell into a catch-all route.
 */
export function notImplemented(req: FastifyRequest, err: ApiError, isCatchAll: boolean): ApiError | null {
  if (err.status !== 404) return null;
  if (!req.is404 && !isCatchAll) return null;
  if (!isPublishedOperation(req.method, req.url)) return null;
  return new ApiError(501, `"${req.method} ${req.url.split('?', 1)[0]}" is a published operation that this server does not implement yet.`, {
    oauthError: 'invalid_request',
  });
}
