import * as oidc from 'openid-client';
import { outboundRequest } from '../../core/net/guarded-http';

/**
 * openid-client (an OpenID Certified relying party) with every request it makes (discovery, JWKS,
 * the token endpoint) sent through the platform's guarded outbound client (CONVENTIONS §7: address
 * policy checked at connect time, size and time capped, no redirects followed).
 */
const TIMEOUT_MS = 10_000;
const MAX_BYTES = 512 * 1024;

function guardedFetch(allowPrivate: boolean): oidc.CustomFetch {
  return async (url, options) => {
    const headers: Record<string, string> = {};
    new Headers(options.headers as ConstructorParameters<typeof Headers>[0]).forEach((v, k) => (headers[k] = v));
    let body: string | undefined;
    if (options.body !== undefined && options.body !== null) body = typeof options.body === 'string' ? options.body : String(options.body);
    const res = await outboundRequest(url, { method: options.method, headers, body, timeoutMs: TIMEOUT_MS, maxBytes: MAX_BYTES, allowPrivate, maxRedirects: 0 });
    const out = new Headers();
    for (const [k, v] of Object.entries(res.headers)) {
      if (v === undefined) continue;
      for (const one of Array.isArray(v) ? v : [v]) out.append(k, one);
    }
    return new Response(res.status === 204 || res.status === 304 ? null : res.body, { status: res.status, headers: out });
  };
}

export interface OidcSettings {
  issuer: string;
  client_id: string;
}

const cache = new Map<string, { at: number; config: Promise<oidc.Configuration> }>();
const CACHE_MS = 10 * 60_000;

/** The identity provider's configuration from `{issuer}/.well-known/openid-configuration` (cached ten minutes per issuer, client and secret). */
export function discover(s: OidcSettings, clientSecret: string, allowPrivate: boolean, fresh = false): Promise<oidc.Configuration> {
  const key = JSON.stringify([s.issuer, s.client_id, clientSecret, allowPrivate]);
  const hit = cache.get(key);
  if (!fresh && hit && Date.now() - hit.at < CACHE_MS) return hit.config;
  const config = oidc
    .discovery(new URL(s.issuer), s.client_id, { client_secret: clientSecret }, oidc.ClientSecretBasic(clientSecret), {
      [oidc.customFetch]: guardedFetch(allowPrivate),
      // plain http issuers only where private addresses are allowed (self-hosted development and tests)
      execute: allowPrivate ? [oidc.allowInsecureRequests] : [],
      timeout: TIMEOUT_MS / 1000,
    })
    .then((c) => {
      c[oidc.customFetch] = guardedFetch(allowPrivate);
      return c;
    });
  cache.set(key, { at: Date.now(), config });
  config.catch(() => cache.delete(key));
  if (cache.size > 500) cache.delete(cache.keys().next().value!);
  return config;
}

export { oidc };
