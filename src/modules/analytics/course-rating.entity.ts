import { Column, Entity } from 'typeorm';
import { OrgEntity } from '../../core/database/org-entity';

/** A student's rating of a course (1..scale_max), optionally tied to the enrollment it came from. */
@Entity('course_ratings')
export class CourseRating extends OrgEntity {
  @Column('uuid') courseId: string;
  @Column('uuid') userId: string;
  @Column('uuid', { nullable: true }) enrollmentId: string | null;
  @Column('int') rating: number;
  @Column('int') scaleMax: number;
  @Column('text', { nullable: true }) feedback: string | null;
  /** moved on every real change by a trigger (data_out_touch), at the millisecond: the order of filter[updated_since] */
  @Column({ type: 'timestamptz', insert: false, update: false }) updatedAt: Date;
}
