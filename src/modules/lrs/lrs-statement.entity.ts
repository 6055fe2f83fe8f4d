import { Column, Entity, PrimaryColumn } from 'typeorm';

/** The `lrs_statements` table, declared for TypeORM's metadata (docs/decisions/data-access.md); its row type: lrs-statements.store.ts. */
@Entity('lrs_statements')
export class LrsStatement {
  @Column('bigint', { generated: 'increment' }) seq: string;
  @PrimaryColumn('uuid') organizationId: string;
  @PrimaryColumn('uuid') id: string;
  @Column('jsonb') statement: unknown;
  @Column('timestamptz') stored: Date;
  @Column('text') verbId: string;
  @Column('text', { nullable: true }) activityId: string | null;
  @Column('text', { array: true }) agents: string[];
  @Column('text', { array: true }) relatedAgents: string[];
  @Column('text', { array: true }) relatedActivities: string[];
  @Column('uuid', { nullable: true }) registration: string | null;
  @Column('uuid', { nullable: true }) voidingTarget: string | null;
  @Column('boolean') voided: boolean;
  @Column('text', { array: true }) attachmentHashes: string[];
}
