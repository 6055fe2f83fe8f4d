import { dateOf, type Timestamp } from '../../core/database/pool-reads';

/**
 * The rule of a certificate's status, in one place (issue 26: business rules out of serializers):
 * expired once `expires_at` has passed (at `expires_at` itself: expired), active otherwise (no
 * expiry: active forever). The same rule as SQL, for the list filter (`c`: the certificates alias).
 */
export type CertificateState = 'active' | 'expired';

export const certificateStatus = (expiresAt: Timestamp | null, now: Date): CertificateState => (expiresAt && dateOf(expiresAt) <= now ? 'expired' : 'active');

export const CERTIFICATE_STATUS_SQL: Record<CertificateState, string> = {
  active: '(c.expires_at IS NULL OR c.expires_at > now())',
  expired: 'c.expires_at <= now()',
};
