import { createHash } from 'node:crypto';

/**
 * RFC 4122 (RFC 9562) name-based UUID, version 5 (SHA-1): `uuidV5(namespace, name)`, the order of
 * the RFC and of PostgreSQL's uuid-ossp `uuid_generate_v5(namespace, name)`. The one implementation
 * (the users external_id migration keeps its own frozen copy, as migrations import no app code).
 */
export function uuidV5(namespace: string, name: string): string {
  const h = createHash('sha1')
    .update(Buffer.from(namespace.replace(/-/g, ''), 'hex'))
    .update(name, 'utf8')
    .digest();
  h[6] = (h[6] & 0x0f) | 0x50;
  h[8] = (h[8] & 0x3f) | 0x80;
  const hex = h.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
