import { Column, Entity } from 'typeorm';
import { SoftDeletedDomainOrgEntity } from '../../core/database/org-entity';

/** A course series (course family) on a domain: an ordered set of its published courses. */
@Entity('course_series')
export class CourseSeries extends SoftDeletedDomainOrgEntity {
  @Column('text') title: string;
  @Column('text') slug: string;
  @Column('boolean') visibleOnCatalog: boolean;
}
