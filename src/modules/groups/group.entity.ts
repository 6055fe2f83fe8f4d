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

/** The columns of a `groups` row, for the set-wise statements' RETURNING / SELECT (read back with entityFromRow): GroupRow's (groups.store.ts). */
export { GROUPS_COLUMNS as GROUP_COLUMNS } from './groups.store';
