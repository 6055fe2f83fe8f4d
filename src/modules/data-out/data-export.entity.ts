import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** The `data_exports` table, declared for TypeORM's metadata (docs/decisions/data-access.md). */
@Entity('data_exports')
export class DataExport {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('uuid') organizationId: string;
  @Column('text') resource: string;
  @Column('text') format: string;
  @Column('jsonb') filter: unknown;
  @Column('text') state: string;
  @Column('bigint') rowsDone: string;
  @Column('bigint', { nullable: true }) rowsTotal: string | null;
  @Column('text', { nullable: true }) fileKey: string | null;
  @Column('bigint', { nullable: true }) fileSize: string | null;
  @Column('text', { nullable: true }) error: string | null;
  @Column('timestamptz', { nullable: true }) startedAt: Date | null;
  @Column('timestamptz', { nullable: true }) finishedAt: Date | null;
  @Column('timestamptz', { nullable: true }) expiresAt: Date | null;
  @Column('timestamptz') createdAt: Date;
  @Column('timestamptz') updatedAt: Date;
}
