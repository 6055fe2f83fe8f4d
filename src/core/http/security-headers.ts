import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiInterface, isOAuthInterface } from './interfaces';

/**
 * The usual security headers, set on every response from one onSend hook (app.factory.ts):
 * - `X-Content-Type-Options: nosniff`, `Referrer-Policy: no-referrer`, `X-Frame-Options: DENY`
 *   everywhere (no response of this server is meant to be framed or sniffed);
 * - `Content-Security-Policy: default-src 'none'; frame-ancestors 'none'` on everything that does not
 *   set its own: the JSON of both interfaces, errors, the OpenAPI document. The authorization page
 *   sets a stricter-than-default one of its own (hashed inline style, form-action); /docs (Swagger
 *   UI) gets the allowances it needs (its own scripts and styles, inline styles, data: images);
 * - `Strict-Transport-Security` when the request came over https (X-Forwarded-Proto counts only
 *   with TRUST_PROXY) or PUBLIC_URL is https;
 * - `Cache-Control: no-store` on the OAuth endpoints (token, register, authorize: their declared
 *   interface, core/http/interfaces.ts) unless set.
 * A hook rather than @fastify/helmet: five headers, per-path policies and no new dependency.
 */
export const API_CSP = "default-src 'none'; frame-ancestors 'none'";
export const DOCS_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";
export const HSTS = 'max-age=31536000';

export function securityHeaders(publicUrl: string | undefined): (req: FastifyRequest, reply: FastifyReply, api: ApiInterface) => void {
  const alwaysHttps = /^https:/i.test(publicUrl ?? '');
  return (req, reply, api) => {
    reply.header('X-Content-Type-Options', 'nosniff');
    reply.header('Referrer-Policy', 'no-referrer');
    const url = req.url;
    // the content player (/play/, CONVENTIONS §18) sets its own framing rules: the player page may be
    // framed by the customer's site, the package's files only by the player (modules/content-runs)
    if (!reply.hasHeader('x-frame-options') && !url.startsWith('/play/')) reply.header('X-Frame-Options', 'DENY');
    if (!reply.hasHeader('content-security-policy')) {
      reply.header('Content-Security-Policy', url === '/docs' || url.startsWith('/docs/') || url.startsWith('/docs?') ? DOCS_CSP : API_CSP);
    }
    if (alwaysHttps || req.protocol === 'https') reply.header('Strict-Transport-Security', HSTS);
    if (isOAuthInterface(api) && !reply.hasHeader('cache-control')) reply.header('Cache-Control', 'no-store');
  };
}
