import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** The `reenrollment_rules` table, declared for TypeORM's metadata (docs/decisions/data-access.md); its row type: reenrollment-rules.store.ts. */
@Entity('reenrollment_rules')
export class ReenrollmentRule {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('uuid') organizationId: string;
  @Column('uuid') publishedCourseId: string;
  @Column('timestamptz') startsAt: Date;
  @Column('integer') cycleDuration: number;
  @Column('text') cycleDurationUnit: string;
  @Column('timestamptz') nextRunAt: Date;
  @Column('timestamptz') createdAt: Date;
  @Column('timestamptz') updatedAt: Date;
}
