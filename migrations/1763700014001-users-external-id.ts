import { createHash } from 'node:crypto';
import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Users created through /v1 (domain users, bulk-create) were stored with `external_id = ''`, while
 * /v2 gives every student the UUID v5 of its uuid. This gives the existing /v1-created users the
 * value /v2 would have given them. Anonymized users keep '' (anonymization erases it). Self-contained:
 * the namespace and the UUID v5 computation are those of students.service.ts at this version.
 */
const NAMESPACE = '5b0e8c1e-3f5e-4d8a-9a57-6c1f2b7c9d10';
const BATCH = 1000;

function uuidV5(namespace: string, name: string): string {
  const h = createHash('sha1')
    .update(Buffer.from(namespace.replace(/-/g, ''), 'hex'))
    .update(name, 'utf8')
    .digest();
  h[6] = (h[6] & 0x0f) | 0x50;
  h[8] = (h[8] & 0x3f) | 0x80;
  const hex = h.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export class UsersExternalId1763700014001 implements MigrationInterface {
  name = 'UsersExternalId1763700014001';

  async up(q: QueryRunner): Promise<void> {
    for (;;) {
      const rows: { id: string }[] = await q.query(`SELECT id FROM users WHERE external_id = '' AND NOT is_anonymized ORDER BY id LIMIT ${BATCH}`);
      if (!rows.length) return;
      const ids = rows.map((r) => r.id);
      await q.query(`UPDATE users u SET external_id = v.external_id FROM unnest($1::uuid[], $2::text[]) AS v(id, external_id) WHERE u.id = v.id`, [ids, ids.map((id) => uuidV5(NAMESPACE, id))]);
    }
  }

  async down(): Promise<void> {
    // Nothing to undo: the values are what /v2 gives every student.
  }
}
