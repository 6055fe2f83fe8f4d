import { signPayload, verifyPayload } from '../../core/crypto/crypto';

/**
 * The administrator's sign-in through the organization's identity provider, as the authorization
 * page sees it: a signed, short-lived, HttpOnly cookie on /v2/oauth/authorize, set by the SSO
 * callback (modules/sso) and spent by one approval (its id `j` is recorded in Redis when used).
 * It is tamper-evident (HMAC with APP_SECRET), not secret: it holds ids and the email only.
 */
export const SSO_SESSION_COOKIE = 'cp_sso_session';
const PURPOSE = 'sso-session';
/** How long after the identity provider's answer the administrator may approve. */
export const SSO_SESSION_SECONDS = 600;

export interface SsoSession {
  /** admin uuid */
  a: string;
  /** organization uuid */
  o: string;
  /** protocol */
  m: 'oidc' | 'saml';
  /** the administrator's email, shown on the consent page */
  em: string;
  /** expiry, epoch seconds */
  e: number;
  /** one-use id */
  j: string;
}

export function signSsoSession(secret: string, s: SsoSession): string {
  return signPayload(secret, PURPOSE, s);
}

export function readSsoSession(secret: string, value: string | undefined): SsoSession | null {
  if (!value) return null;
  const s = verifyPayload<SsoSession>(secret, PURPOSE, value);
  if (!s || typeof s.a !== 'string' || typeof s.o !== 'string' || typeof s.e !== 'number' || typeof s.j !== 'string') return null;
  if (s.e * 1000 <= Date.now()) return null;
  return s;
}

export function ssoSessionCookie(value: string, maxAge: number, secure: boolean): string {
  return `${SSO_SESSION_COOKIE}=${value}; Path=/v2/oauth/authorize; Max-Age=${maxAge}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
}

/** Redis key marking a session as spent (SET NX): an approval through SSO is made once per sign-in. */
export const spentSessionKey = (prefix: string, jti: string) => `${prefix}:sso:spent:${jti}`;
