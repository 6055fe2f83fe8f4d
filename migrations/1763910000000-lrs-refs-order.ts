import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The statements whose object is a StatementRef, in `stored` order (docs/decisions/lrs.md "Queries
 * that stay flat"): a filtered statements query answers those whose target matches too; that arm
 * walks this index backwards and probes each target by its key, stopping after a page, instead of
 * reading every statement the filter matches.
 */
export class LrsRefsOrder1763910000000 implements MigrationInterface {
  name = 'LrsRefsOrder1763910000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX lrs_statements_refs_stored_idx ON lrs_statements (organization_id, stored, seq) WHERE voiding_target IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX lrs_statements_refs_stored_idx`);
  }
}
