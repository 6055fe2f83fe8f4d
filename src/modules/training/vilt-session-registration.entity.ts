import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** The `vilt_session_registrations` table, declared for TypeORM's metadata (docs/decisions/data-access.md); its row type: vilt-session-registrations.store.ts. */
@Entity('vilt_session_registrations')
export class ViltSessionRegistration {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('uuid') organizationId: string;
  @Column('uuid') sessionId: string;
  @Column('uuid') userId: string;
  @Column('uuid') enrollmentId: string;
  @Column('boolean') attended: boolean;
  @Column('timestamptz') createdAt: Date;
  @Column('timestamptz') updatedAt: Date;
}
