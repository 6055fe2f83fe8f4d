import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** The `audit_events` table, declared for TypeORM's metadata (docs/decisions/data-access.md). */
@Entity('audit_events')
export class AuditEvent {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('uuid') organizationId: string;
  @Column('timestamptz') createdAt: Date;
  @Column('text') actorType: string;
  @Column('text', { nullable: true }) actorId: string | null;
  @Column('text', { nullable: true }) clientId: string | null;
  @Column('text') operation: string;
  @Column('text') method: string;
  @Column('text') route: string;
  @Column('integer') status: number;
  @Column('jsonb') resourceIds: unknown;
  @Column('text', { nullable: true }) ipAddress: string | null;
  @Column('text', { nullable: true }) requestId: string | null;
}
