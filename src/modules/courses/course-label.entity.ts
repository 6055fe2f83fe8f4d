import { Entity, PrimaryColumn } from 'typeorm';
import { OrgOwned } from '../../core/database/org-entity';

/** A label attached to a course. */
@Entity('course_labels')
export class CourseLabel extends OrgOwned {
  @PrimaryColumn('uuid') courseId: string;
  @PrimaryColumn('uuid') labelId: string;
}
