import type { DataSource } from 'typeorm';
import { unscoped } from '../database/scoped';

/** One bounded batch of Idempotency-Key records past their expiry; run by the maintenance clean-up. */
export async function deleteExpiredIdempotencyKeys(ds: DataSource, batch: number): Promise<number> {
  const [, affected] = (await unscoped(ds, 'clean-up across organizations').query(
    `DELETE FROM idempotency_keys WHERE (organization_id, lookup) IN (
       SELECT organization_id, lookup FROM idempotency_keys WHERE expires_at < now() LIMIT $1 FOR UPDATE SKIP LOCKED)`,
    [batch],
  )) as [unknown[], number];
  return affected;
}
