import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * The `lrs_statement_agents` table, declared for TypeORM's metadata (docs/decisions/data-access.md).
 * The table has no primary key; the entity's key is its unique index (organization_id, agent,
 * stored, seq), which identifies a row.
 */
@Entity('lrs_statement_agents')
export class LrsStatementAgent {
  @PrimaryColumn('uuid') organizationId: string;
  @PrimaryColumn('text') agent: string;
  @Column('boolean') direct: boolean;
  @PrimaryColumn('timestamptz') stored: Date;
  @PrimaryColumn('bigint') seq: string;
}
