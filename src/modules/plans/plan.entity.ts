import { Column, Entity } from 'typeorm';
import { UpdatedOrgEntity } from '../../core/database/org-entity';
import type { StoredPurchase } from '../commerce/purchases';

/** A plan (subscription bundle) offered on a domain; written by the administrative writes (plans-admin.service.ts). */
@Entity('plans')
export class Plan extends UpdatedOrgEntity {
  @Column('uuid') domainId: string;
  @Column('text') name: string;
  @Column('text') slug: string;
  @Column('boolean') hidden: boolean;
  @Column('text', { nullable: true }) shortDescription: string | null;
  @Column('timestamptz', { nullable: true }) deletedAt: Date | null;
}

/** A user's enrollment in a plan; access needs one active, unexpired enrollment. */
@Entity('plan_enrollments')
export class PlanEnrollment extends UpdatedOrgEntity {
  @Column('uuid') planId: string;
  @Column('uuid') userId: string;
  @Column('timestamptz') enrolledAt: Date;
  @Column('timestamptz', { nullable: true }) expiresAt: Date | null;
  @Column('boolean') active: boolean;
  @Column('jsonb', { nullable: true }) purchase: StoredPurchase | null;
}
