import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Statements by agent in `stored` order (docs/decisions/lrs.md "Queries that stay flat", agent):
 * one row per statement and agent it names (`related`: every agent of `related_agents`; `direct`:
 * the actor or object agent, `agents`), written by the same statement that inserts the
 * statements. A page of `agent` (with or without `related_agents`) walks
 * (organization_id, agent, stored, seq) backwards or forwards and stops after the page; the GIN
 * indexes on the two arrays (no order: every statement of the agent was read and sorted) go.
 */
export class LrsStatementAgents1763950000000 implements MigrationInterface {
  name = 'LrsStatementAgents1763950000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE lrs_statement_agents (
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        agent text NOT NULL,
        direct boolean NOT NULL,
        stored timestamptz NOT NULL,
        seq bigint NOT NULL
      )`);
    await q.query(`
      INSERT INTO lrs_statement_agents (organization_id, agent, direct, stored, seq)
      SELECT s.organization_id, k.agent, k.agent = ANY(s.agents), s.stored, s.seq
        FROM lrs_statements s, unnest(s.related_agents) AS k(agent)`);
    await q.query(`CREATE UNIQUE INDEX lrs_statement_agents_idx ON lrs_statement_agents (organization_id, agent, stored, seq)`);
    await q.query(`CREATE INDEX lrs_statement_agents_direct_idx ON lrs_statement_agents (organization_id, agent, stored, seq) WHERE direct`);
    await q.query(`DROP INDEX lrs_statements_agents_idx`);
    await q.query(`DROP INDEX lrs_statements_related_agents_idx`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX lrs_statements_agents_idx ON lrs_statements USING gin (agents)`);
    await q.query(`CREATE INDEX lrs_statements_related_agents_idx ON lrs_statements USING gin (related_agents)`);
    await q.query(`DROP TABLE lrs_statement_agents`);
  }
}
