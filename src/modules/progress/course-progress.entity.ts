import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** The `course_progress` table, declared for TypeORM's metadata (docs/decisions/data-access.md); its row type: course-progress.store.ts. */
@Entity('course_progress')
export class CourseProgress {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('uuid') organizationId: string;
  @Column('uuid') userId: string;
  @Column('uuid') publishedCourseId: string;
  @Column('uuid') courseId: string;
  @Column('uuid', { nullable: true }) enrollmentId: string | null;
  @Column('timestamptz', { nullable: true }) completedAt: Date | null;
  @Column('text', { nullable: true }) successStatus: string | null;
  @Column('integer', { nullable: true }) score: number | null;
  @Column('integer', { nullable: true }) maxScore: number | null;
  @Column('text') creditsEarned: string;
  @Column('text') creditUnitPlural: string;
  @Column('timestamptz', { nullable: true }) latestActivity: Date | null;
  @Column('timestamptz') createdAt: Date;
  @Column('timestamptz') updatedAt: Date;
}
