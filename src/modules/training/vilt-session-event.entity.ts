import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** The `vilt_session_events` table, declared for TypeORM's metadata (docs/decisions/data-access.md); its row type: vilt-session-events.store.ts. */
@Entity('vilt_session_events')
export class ViltSessionEvent {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('uuid') organizationId: string;
  @Column('uuid') sessionId: string;
  @Column('varchar', { length: 200 }) displayName: string;
  @Column('text') description: string;
  @Column('text') postRegistrationInstructions: string;
  @Column('varchar', { length: 32 }) provider: string;
  @Column('varchar', { length: 254 }) instructorEmail: string;
  @Column('varchar', { length: 200 }) instructorName: string;
  @Column('uuid', { nullable: true }) instructorId: string | null;
  @Column('timestamptz') startsAt: Date;
  @Column('timestamptz') endsAt: Date;
  @Column('varchar', { length: 64 }) timezone: string;
  @Column('varchar', { length: 100, nullable: true }) location: string | null;
  @Column('text', { nullable: true }) eventLink: string | null;
  @Column('integer') sequence: number;
  @Column('timestamptz') createdAt: Date;
  @Column('timestamptz') updatedAt: Date;
}
