import { signPayload, verifyPayload } from '../../core/crypto/crypto';

/**
 * The password-reset link token: signPayload(APP_SECRET, 'password-reset', {sid, exp, pca}).
 *  - sid: the student's internal uuid;
 *  - exp: expiry, unix seconds (now + PASSWORD_RESET_TTL);
 *  - pca: the student's password_changed_at (ISO string) when the link was issued, or null.
 * Whoever consumes the link (the reset page, a later issue) must also check that pca still equals
 * the student's password_changed_at: setting a password changes it, so a used link dies.
 */
export const RESET_PURPOSE = 'password-reset';

export interface PasswordResetClaims {
  sid: string;
  exp: number;
  pca: string | null;
}

export function signResetToken(secret: string, claims: PasswordResetClaims): string {
  return signPayload(secret, RESET_PURPOSE, claims);
}

/** The claims of an authentic, unexpired token, or null. Does not look at the database. */
export function verifyResetToken(secret: string, token: unknown, nowMs = Date.now()): PasswordResetClaims | null {
  const c = verifyPayload<PasswordResetClaims>(secret, RESET_PURPOSE, token);
  if (!c || typeof c !== 'object' || typeof c.sid !== 'string' || typeof c.exp !== 'number') return null;
  if (c.pca !== null && typeof c.pca !== 'string') return null;
  if (c.exp * 1000 <= nowMs) return null;
  return c;
}

export function resetUrl(domainName: string, token: string): string {
  return `https://${domainName}/auth/reset-password?token=${encodeURIComponent(token)}`;
}
