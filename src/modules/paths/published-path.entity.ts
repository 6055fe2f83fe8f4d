import { Column, Entity, PrimaryColumn } from 'typeorm';
import { DomainOrgEntity, OrgOwned, UpdatedOrgEntity } from '../../core/database/org-entity';
import type { StoredPurchase } from '../commerce/purchases';
import { EnrollmentColumns } from '../enrollments/enrollment.entity';

/** A path published to a domain, with its slug and catalog flags. */
@Entity('published_paths')
export class PublishedPath extends DomainOrgEntity {
  @Column('uuid') pathId: string;
  @Column('text') slug: string;
  @Column('boolean') hidden: boolean;
  @Column('boolean') strictEnforceGroupVisibility: boolean;
  @Column('boolean') uniqueProgressPerEnrollment: boolean;
  @Column('timestamptz', { nullable: true }) unpublishedAt: Date | null;
}

/** One published course of a path, at a unique `order` within the path. */
@Entity('path_items')
export class PathItem extends UpdatedOrgEntity {
  @Column('uuid') pathId: string;
  @Column('uuid') publishedCourseId: string;
  @Column('integer') order: number;
}

/** A label (content module's `labels`, referenced by id) on a published path. */
@Entity('path_labels')
export class PathLabel extends OrgOwned {
  @PrimaryColumn('uuid') publishedPathId: string;
  @PrimaryColumn('uuid') labelId: string;
}

/** A user's enrollment in a published path; access needs one active, unexpired enrollment. */
@Entity('published_path_enrollments')
export class PublishedPathEnrollment extends EnrollmentColumns {
  @Column('uuid') publishedPathId: string;
  @Column('uuid') pathId: string;
  @Column('jsonb', { nullable: true }) purchase: StoredPurchase | null;
  @Column('timestamptz', { nullable: true }) completedAt: Date | null;
}
