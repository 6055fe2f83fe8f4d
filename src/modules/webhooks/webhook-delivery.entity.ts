import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** The `webhook_deliveries` table, declared for TypeORM's metadata (docs/decisions/data-access.md). */
@Entity('webhook_deliveries')
export class WebhookDelivery {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('uuid') organizationId: string;
  @Column('uuid') webhookId: string;
  @Column('uuid') eventId: string;
  @Column('text') targetUrl: string;
  @Column('integer') attemptCount: number;
  @Column('integer') retryBase: number;
  @Column('text') status: string;
  @Column('timestamptz', { nullable: true }) nextAttemptAt: Date | null;
  @Column('integer', { nullable: true }) lastStatus: number | null;
  @Column('text', { nullable: true }) lastError: string | null;
  @Column('timestamptz') createdAt: Date;
  @Column('timestamptz') updatedAt: Date;
  @Column('boolean') awaitingEnqueue: boolean;
}
