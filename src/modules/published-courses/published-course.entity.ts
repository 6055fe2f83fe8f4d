import { Column, Entity } from 'typeorm';
import { DomainOrgEntity } from '../../core/database/org-entity';

/** A course published to a domain (the /v1 PublishedCourse); learners enroll in these. */
@Entity('published_courses')
export class PublishedCourse extends DomainOrgEntity {
  @Column('uuid') courseId: string;
  @Column('text') slug: string;
  @Column('text') externalId: string;
  @Column('boolean') isHidden: boolean;
  @Column('boolean') visibleOnCatalog: boolean;
  @Column('boolean') openAccess: boolean;
  @Column('boolean') strictEnforceGroupVisibility: boolean;
  @Column('text') visibilityOverrideType: string;
  @Column('boolean') registrationRequired: boolean;
  @Column('timestamptz', { nullable: true }) registrationStartsAt: Date | null;
  @Column('timestamptz', { nullable: true }) registrationEndsAt: Date | null;
  @Column('timestamptz', { nullable: true }) accessPeriodStartsAt: Date | null;
  @Column('timestamptz', { nullable: true }) accessPeriodEndsAt: Date | null;
  @Column('boolean') restrictAccessStartEndDates: boolean;
  @Column('boolean') allowSelfServiceReenroll: boolean;
  @Column('boolean') uniqueProgressPerEnrollment: boolean;
  @Column('boolean') requireAllPrerequisites: boolean;
  @Column('timestamptz', { nullable: true }) unpublishedAt: Date | null;
}
