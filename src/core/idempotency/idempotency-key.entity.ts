import { Column, Entity, PrimaryColumn } from 'typeorm';

/** The `idempotency_keys` table, declared for TypeORM's metadata (docs/decisions/data-access.md). */
@Entity('idempotency_keys')
export class IdempotencyKey {
  @PrimaryColumn('uuid') organizationId: string;
  @PrimaryColumn('bytea') lookup: Buffer;
  @Column('uuid') claimId: string;
  @Column('bytea') fingerprint: Buffer;
  @Column('smallint', { nullable: true }) status: number | null;
  @Column('jsonb', { nullable: true }) headers: unknown | null;
  @Column('bytea', { nullable: true }) body: Buffer | null;
  @Column('timestamptz') createdAt: Date;
  @Column('timestamptz') expiresAt: Date;
  @Column('boolean') sealed: boolean;
  @Column('bigint', { nullable: true }) owner: string | null;
  @Column('timestamptz', { nullable: true }) committedAt: Date | null;
  @Column('jsonb', { nullable: true }) answerRef: unknown | null;
}
