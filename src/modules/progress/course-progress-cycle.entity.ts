import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** The `course_progress_cycles` table, declared for TypeORM's metadata (docs/decisions/data-access.md); its row type: course-progress-cycles.store.ts. */
@Entity('course_progress_cycles')
export class CourseProgressCycle {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('uuid') organizationId: string;
  @Column('uuid') courseProgressId: string;
  @Column('uuid') userId: string;
  @Column('uuid') publishedCourseId: string;
  @Column('timestamptz') completedAt: Date;
  @Column('text', { nullable: true }) successStatus: string | null;
  @Column('integer', { nullable: true }) score: number | null;
  @Column('integer', { nullable: true }) maxScore: number | null;
  @Column('uuid', { nullable: true }) certificateId: string | null;
  @Column('jsonb') lessons: unknown;
  @Column('timestamptz') endedAt: Date;
  @Column('timestamptz') createdAt: Date;
}
