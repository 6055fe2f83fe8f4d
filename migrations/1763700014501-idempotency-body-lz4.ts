import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Stored Idempotency-Key answers (a 100-student batch answer is about 40 KB) compressed with lz4
 * instead of pglz: the store of a keyed batch create took ~0.2 ms less per statement, same size on
 * disk (docs/performance.md). A server built without lz4 keeps pglz.
 */
export class IdempotencyBodyLz41763700014501 implements MigrationInterface {
  name = 'IdempotencyBodyLz41763700014501';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      DO $$ BEGIN
        ALTER TABLE idempotency_keys ALTER COLUMN body SET COMPRESSION lz4;
      EXCEPTION WHEN feature_not_supported THEN NULL;
      END $$`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE idempotency_keys ALTER COLUMN body SET COMPRESSION pglz`);
  }
}
