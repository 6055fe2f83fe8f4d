import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** The `outbox_events` table, declared for TypeORM's metadata (docs/decisions/data-access.md). */
@Entity('outbox_events')
export class OutboxEvent {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('uuid') organizationId: string;
  @Column('text') eventType: string;
  @Column('jsonb') payload: unknown;
  @Column('timestamptz') createdAt: Date;
  @Column('timestamptz', { nullable: true }) relayedAt: Date | null;
  @Column({ type: 'bigint', generated: 'identity', generatedIdentity: 'ALWAYS' }) seq: string;
}
