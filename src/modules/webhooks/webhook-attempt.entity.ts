import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** The `webhook_attempts` table, declared for TypeORM's metadata (docs/decisions/data-access.md). */
@Entity('webhook_attempts')
export class WebhookAttempt {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('uuid') deliveryId: string;
  @Column('integer') attemptNo: number;
  @Column('timestamptz') startedAt: Date;
  @Column('integer', { nullable: true }) httpStatus: number | null;
  @Column('integer') latencyMs: number;
  @Column('text', { nullable: true }) error: string | null;
  @Column('text', { nullable: true }) responseExcerpt: string | null;
}
