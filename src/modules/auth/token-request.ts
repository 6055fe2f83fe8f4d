import { ApiError } from '../../core/http/api-error';
import { ClientCredentials, oauthError } from './token.service';

export function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

/** Client authentication: HTTP Basic (RFC 6749 2.3.1, form-encoded parts) or body members, not both. */
export function clientCredentials(authorization: string | undefined, body: Record<string, unknown>): ClientCredentials {
  const bodyId = str(body.client_id);
  const bodySecret = str(body.client_secret);
  if (authorization && /^basic /i.test(authorization)) {
    const decoded = Buffer.from(authorization.slice(6).trim(), 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) throw oauthError(401, 'invalid_client', 'Malformed Basic credentials.');
    let id: string;
    let secret: string;
    try {
      id = decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, ' '));
      secret = decodeURIComponent(decoded.slice(colon + 1).replace(/\+/g, ' '));
    } catch {
      throw oauthError(401, 'invalid_client', 'Malformed Basic credentials.');
    }
    if (bodySecret !== undefined) throw oauthError(400, 'invalid_request', 'Use one client authentication method, not both.');
    if (bodyId !== undefined && bodyId !== id) throw oauthError(400, 'invalid_request', 'client_id differs from the Basic credentials.');
    return { clientId: id, clientSecret: secret };
  }
  return { clientId: bodyId, clientSecret: bodySecret };
}

/** RFC 6749 section 5.2: a client that tried HTTP Basic and failed gets a 401 with the Basic challenge. */
export async function basicChallenge<T>(authorization: string | undefined, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof ApiError && err.status === 401 && authorization && /^basic /i.test(authorization)) {
      err.headers['WWW-Authenticate'] = 'Basic realm="oauth", charset="UTF-8"';
    }
    throw err;
  }
}

export function asObject(body: unknown): Record<string, unknown> {
  if (body === undefined || body === null) return {};
  if (typeof body !== 'object' || Array.isArray(body)) throw oauthError(400, 'invalid_request', 'The request body must be a JSON object or a form.');
  return body as Record<string, unknown>;
}

export interface TokenRequest {
  grantType: string;
  creds: ClientCredentials;
  body: Record<string, unknown>;
}

/** A token request's body (JSON or form: every member a string) and client authentication, or the error it gets. */
export function parseTokenRequest(rawBody: unknown, authorization: string | undefined): TokenRequest {
  const body = asObject(rawBody);
  for (const [k, v] of Object.entries(body)) {
    if (v !== undefined && v !== null && typeof v !== 'string') throw oauthError(400, 'invalid_request', `${k} must be a string.`);
  }
  return { grantType: str(body.grant_type) ?? 'client_credentials', creds: clientCredentials(authorization, body), body };
}
