import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** The `ilt_instructors` table, declared for TypeORM's metadata (docs/decisions/data-access.md); its row type: ilt-instructors.store.ts. */
@Entity('ilt_instructors')
export class IltInstructor {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('uuid') organizationId: string;
  @Column('varchar', { length: 254 }) email: string;
  @Column('varchar', { length: 200 }) name: string;
  @Column('timestamptz') createdAt: Date;
  @Column('timestamptz') updatedAt: Date;
}
