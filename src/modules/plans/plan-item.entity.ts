import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** The `plan_items` table, declared for TypeORM's metadata (docs/decisions/data-access.md). */
@Entity('plan_items')
export class PlanItem {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('uuid') organizationId: string;
  @Column('uuid') planId: string;
  @Column('uuid', { nullable: true }) publishedCourseId: string | null;
  @Column('uuid', { nullable: true }) publishedPathId: string | null;
  @Column('integer') order: number;
  @Column('timestamptz') createdAt: Date;
}
