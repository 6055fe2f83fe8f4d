import { Column, Entity } from 'typeorm';
import { SoftDeletedDomainOrgEntity } from '../../core/database/org-entity';
import type { StoredPurchase } from '../commerce/purchases';
import { EnrollmentColumns } from '../enrollments/enrollment.entity';

/** A plan (subscription bundle) offered on a domain; written by the administrative writes (plans-admin.service.ts). */
@Entity('plans')
export class Plan extends SoftDeletedDomainOrgEntity {
  @Column('text') name: string;
  @Column('text') slug: string;
  @Column('boolean') hidden: boolean;
  @Column('text', { nullable: true }) shortDescription: string | null;
}

/** A user's enrollment in a plan; access needs one active, unexpired enrollment. */
@Entity('plan_enrollments')
export class PlanEnrollment extends EnrollmentColumns {
  @Column('uuid') planId: string;
  @Column('jsonb', { nullable: true }) purchase: StoredPurchase | null;
}
