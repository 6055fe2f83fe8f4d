import { Column, Entity } from 'typeorm';
import { SoftDeletedOrgEntity } from '../../core/database/org-entity';

/** A course (authoring object). Drafts and soft-deleted courses are invisible on /v2. */
@Entity('courses')
export class Course extends SoftDeletedOrgEntity {
  @Column('text') title: string;
  @Column('text') shortDescription: string;
  @Column('text') longDescriptionHtml: string;
  @Column('boolean') enforceSequentialNavigation: boolean;
  @Column('text') externalId: string;
  @Column('text') promoImageUrl: string;
  @Column('boolean') displayCourseAndLessonTime: boolean;
  @Column('text') manualCourseTime: string;
  @Column('boolean') displayManualCourseTime: boolean;
  @Column('text') courseAndLessonTimeFormat: string;
  @Column('boolean') isDraft: boolean;
  @Column('uuid', { nullable: true }) draftOriginId: string | null;
  @Column('text', { nullable: true }) createdByEmail: string | null;
  /** certificate settings (CONVENTIONS §15): whether a completion issues a certificate, and its validity in days (null: never expires) */
  @Column('boolean', { default: true }) issuesCertificate: boolean;
  @Column('integer', { nullable: true }) certificateValidityDays: number | null;
  @Column('smallint', { nullable: true }) ratingScale: number | null;
  /** the search document, kept by the database (never read or written through the entity) */
  @Column({ type: 'tsvector', select: false, insert: false, update: false }) searchVector: string;
}
