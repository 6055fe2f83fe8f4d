import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The database wall for the LRS's agent side table (docs/decisions/lrs.md "Queries that stay
 * flat", agent): every `lrs_statement_agents` row names its statement by (organization_id, seq),
 * so a row can never point at another organization's statement, nor outlive its statement.
 * `seq` is one sequence for all organizations; the composite UNIQUE is what the key references
 * (as every composite organization key does).
 */
export class LrsStatementAgentsFk1763985000000 implements MigrationInterface {
  name = 'LrsStatementAgentsFk1763985000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE lrs_statements ADD CONSTRAINT lrs_statements_organization_id_seq_key UNIQUE (organization_id, seq)`);
    await q.query(`
      ALTER TABLE lrs_statement_agents ADD CONSTRAINT lrs_statement_agents_statement_fkey
        FOREIGN KEY (organization_id, seq) REFERENCES lrs_statements (organization_id, seq) ON DELETE CASCADE`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE lrs_statement_agents DROP CONSTRAINT lrs_statement_agents_statement_fkey`);
    await q.query(`ALTER TABLE lrs_statements DROP CONSTRAINT lrs_statements_organization_id_seq_key`);
  }
}
