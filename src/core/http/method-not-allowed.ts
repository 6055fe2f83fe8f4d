import type { FastifyRequest } from 'fastify';
import { ApiError } from './api-error';

/** The methods a path can be served under, in the order the `Allow` header lists them. */
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

/**
 * The wildcard prefix of a catch-all route (one registered for every method with a trailing `*`,
 * like the /v1 fallback `@All('v1/*')`) that `req` was routed to, or null when its route is a real one.
 */
export function catchAllPrefix(req: FastifyRequest): string | null {
  const { url, method } = req.routeOptions;
  return Array.isArray(method) && typeof url === 'string' && url.endsWith('*') ? url.slice(0, -1) : null;
}

/** The request's path as the router sees it: no query string. */
const pathOf = (url: string) => url.split('?', 1)[0];

/**
 * The methods the request's path is served under, from Fastify's own route table (`findRoute`
 * matches a concrete path as the router does: parameters, `ignoreTrailingSlash`); HEAD is there
 * wherever GET is (Fastify's HEAD routes), OPTIONS only where a route serves it. Matches of the
 * catch-all the request itself fell into (the /v1 fallback answers every method) do not count.
 */
export function allowedMethods(req: FastifyRequest): string[] {
  const server = req.server;
  if (typeof server?.findRoute !== 'function') return [];
  const path = pathOf(req.url);
  const prefix = req.is404 ? null : catchAllPrefix(req);
  const allowed: string[] = [];
  for (const method of METHODS) {
    if (method === req.method) continue;
    const found = server.findRoute({ method, url: req.url });
    if (!found) continue;
    const star = (found.params as Record<string, string | undefined> | undefined)?.['*'];
    // the same catch-all again (it is registered under every method): not a route of this path
    if (prefix !== null && star !== undefined && normalized(prefix + star) === normalized(path)) continue;
    allowed.push(method);
  }
  return allowed;
}

/** A path compared as the router compares it: decoded, without a trailing slash. */
function normalized(path: string): string {
  let p = path;
  try {
    p = decodeURIComponent(path);
  } catch {
    /* left as sent */
  }
  return p.length > 1 && p.endsWith('/') ? p.slice(0, -1) : p;
}

/**
 * A 404 that means "no route for this method" becomes 405 with `Allow` (CONVENTIONS §16): the
 * request matched no route (Fastify's not-found handler) or only a catch-all, and its path is
 * served under other methods. Anything else (a 404 from a handler, an unknown path) stays a 404.
 */
export function methodNotAllowed(req: FastifyRequest, err: ApiError): ApiError | null {
  if (err.status !== 404) return null;
  if (!req.is404 && catchAllPrefix(req) === null) return null;
  const allowed = allowedMethods(req);
  if (allowed.length === 0) return null;
  return new ApiError(405, `Method "${req.method}" not allowed.`, { headers: { Allow: allowed.join(', ') }, oauthError: 'invalid_request' });
}
