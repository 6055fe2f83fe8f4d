import { randomToken } from '../crypto/crypto';

/** The form of an OAuth client's credentials: the id (`cp_…`) and the secret (`cps_…`) of every client, the bootstrap one included. */
export function newClientId(): string {
  return `cp_${randomToken(18)}`;
}
export function newClientSecret(): string {
  return `cps_${randomToken(32)}`;
}
