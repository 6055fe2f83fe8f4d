import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** The `vilt_sessions` table, declared for TypeORM's metadata (docs/decisions/data-access.md); its row type: vilt-sessions.store.ts. */
@Entity('vilt_sessions')
export class ViltSession {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('uuid') organizationId: string;
  @Column('uuid') lessonId: string;
  @Column('boolean') isMultiSession: boolean;
  @Column('varchar', { length: 200 }) displayName: string;
  @Column('integer', { nullable: true }) seatsTotal: number | null;
  @Column('integer') registrationCount: number;
  @Column('text', { array: true }) tags: string[];
  @Column('timestamptz') createdAt: Date;
  @Column('timestamptz') updatedAt: Date;
}
