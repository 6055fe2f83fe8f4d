import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** The `vilt_session_mails` table, declared for TypeORM's metadata (docs/decisions/data-access.md); its row type: vilt-session-mails.store.ts. */
@Entity('vilt_session_mails')
export class ViltSessionMail {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('uuid') organizationId: string;
  @Column('uuid', { nullable: true }) sessionId: string | null;
  @Column('uuid') userId: string;
  @Column('varchar', { length: 16 }) method: string;
  @Column('timestamptz', { nullable: true }) doneAt: Date | null;
  @Column('timestamptz') createdAt: Date;
  @Column('jsonb', { nullable: true }) cancelled: unknown | null;
  @Column('uuid', { nullable: true }) eventId: string | null;
  @Column('integer', { nullable: true }) sequence: number | null;
  @Column('varchar', { length: 32, nullable: true }) reason: string | null;
}
