import { Column, Entity } from 'typeorm';
import { UpdatedOrgEntity } from '../../core/database/org-entity';

/**
 * What the three enrollment tables share (`enrollments`, `plan_enrollments`,
 * `published_path_enrollments`): whose enrollment it is, since when, until when (null: no end),
 * and whether it is active.
 */
export abstract class EnrollmentColumns extends UpdatedOrgEntity {
  @Column('uuid') userId: string;
  @Column('timestamptz') enrolledAt: Date;
  @Column('timestamptz', { nullable: true }) expiresAt: Date | null;
  @Column('boolean') active: boolean;
}

/** A student's enrollment in a published course (course_id is denormalized from it). */
@Entity('enrollments')
export class Enrollment extends EnrollmentColumns {
  @Column('uuid') publishedCourseId: string;
  @Column('uuid') courseId: string;
  @Column('timestamptz', { nullable: true }) dueAt: Date | null;
  @Column('timestamptz', { nullable: true }) startedAt: Date | null;
  @Column('timestamptz', { nullable: true }) completedAt: Date | null;
}
