import { Column, CreateDateColumn, Entity, PrimaryColumn, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/** A label of the organization (`/v1/labels`); courses carry labels through course_labels. */
@Entity('labels')
export class Label {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('uuid') organizationId: string;
  @Column('text') name: string;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ type: 'timestamptz' }) updatedAt: Date;
}

/** A label attached to a course. */
@Entity('course_labels')
export class CourseLabel {
  @PrimaryColumn('uuid') courseId: string;
  @PrimaryColumn('uuid') labelId: string;
  @Column('uuid') organizationId: string;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
}

/** A catalog tag of the organization (`/v1/tags`). */
@Entity('tags')
export class Tag {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('uuid') organizationId: string;
  @Column('text') name: string;
  @Column('text') slug: string;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ type: 'timestamptz' }) updatedAt: Date;
}

/**
 * The /v1 view of the shared courses table (the /v2 module has its own `Course` class on the same
 * table; both see the same rows). Drafts and soft-deleted courses are invisible on /v1 too.
 */
@Entity('courses')
export class V1Course {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('uuid') organizationId: string;
  @Column('text') title: string;
  @Column('text') shortDescription: string;
  @Column('text') longDescriptionHtml: string;
  @Column('boolean') enforceSequentialNavigation: boolean;
  @Column('text') promoImageUrl: string;
  @Column('boolean') displayCourseAndLessonTime: boolean;
  @Column('text') manualCourseTime: string;
  @Column('boolean') displayManualCourseTime: boolean;
  @Column('text') courseAndLessonTimeFormat: string;
  @Column('boolean') isDraft: boolean;
  @Column('uuid', { nullable: true }) draftOriginId: string | null;
  @Column('timestamptz', { nullable: true }) deletedAt: Date | null;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ type: 'timestamptz' }) updatedAt: Date;
}

/**
 * One element of lessons.content_items (jsonb), the blocks of a MODULAR lesson. Ids are UUIDs
 * (public form encodeId('contentItem')); asset_id / quiz_id are UUIDs of the referenced objects.
 */
export interface StoredContentItem {
  id: string;
  type: string;
  header: string;
  order: number;
  content_html: string | null;
  asset_id: string | null;
  quiz_id: string | null;
}

/** The /v1 view of the shared lessons table. */
@Entity('lessons')
export class V1Lesson {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('uuid') organizationId: string;
  @Column('uuid') courseId: string;
  @Column('text') title: string;
  @Column('text') type: string;
  @Column('integer') order: number;
  @Column('text') descriptionHtml: string;
  @Column('text', { nullable: true }) contentHtml: string | null;
  @Column('jsonb') contentItems: StoredContentItem[];
  @Column('uuid', { nullable: true }) quizId: string | null;
  @Column('uuid', { nullable: true }) contentAssetId: string | null;
  @Column('uuid', { nullable: true }) contentWebPackageId: string | null;
  @Column('boolean') displayFullscreen: boolean;
  @Column('boolean') optional: boolean;
  @Column('text') searchKeywords: string;
  @Column('integer', { nullable: true }) timeSeconds: number | null;
  @Column('text') tooltipHtml: string;
  @Column('boolean') isDraft: boolean;
  @Column('timestamptz', { nullable: true }) deletedAt: Date | null;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ type: 'timestamptz' }) updatedAt: Date;
}
