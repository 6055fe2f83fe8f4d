import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** The `reenrollment_runs` table, declared for TypeORM's metadata (docs/decisions/data-access.md). */
@Entity('reenrollment_runs')
export class ReenrollmentRun {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('uuid') organizationId: string;
  @Column('uuid') ruleId: string;
  @Column('timestamptz') scheduledAt: Date;
  @Column('timestamptz') ranAt: Date;
  @Column('integer') resetCount: number;
}
