import { Column, Entity } from 'typeorm';
import { UpdatedOrgEntity } from '../../core/database/org-entity';

/** A student group of an organization. Hard-deleted; memberships and visibility overrides cascade. */
@Entity('groups')
export class Group extends UpdatedOrgEntity {
  @Column('text') name: string;
  @Column('uuid', { nullable: true }) categoryId: string | null;
  @Column('text', { array: true }) ruleEmailDomains: string[];
  @Column('boolean', { nullable: true }) sendCourseEnrollmentEmail: boolean | null;
  @Column('integer', { nullable: true }) discountPercent: number | null;
  @Column('jsonb', { nullable: true }) signUpFieldRule: unknown;
}

/** The columns of a `groups` row, for the set-wise statements' RETURNING / SELECT (read back with entityFromRow). */
export const GROUP_COLUMNS = 'id, organization_id, name, category_id, rule_email_domains, send_course_enrollment_email, discount_percent, sign_up_field_rule, created_at, updated_at';
