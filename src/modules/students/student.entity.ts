import { Column, Entity } from 'typeorm';
import { UpdatedOrgEntity } from '../../core/database/org-entity';

/**
 * A learner of an organization (the `users` table). Email is unique per organization,
 * case-insensitively (index users_org_email_uq on (organization_id, lower(email))), and stored
 * lowercased by the /v2 create. Deactivated students stay readable and listable
 * (`is_inactive`); anonymized ones keep their row with every personal field erased.
 */
@Entity('users')
export class Student extends UpdatedOrgEntity {
  @Column('text') email: string;
  @Column('text') firstName: string;
  @Column('text') lastName: string;
  @Column('text') externalId: string;
  @Column('boolean') isInactive: boolean;
  @Column('boolean') isAnonymized: boolean;
  @Column('text', { nullable: true }) ssoProvider: string | null;
  @Column('text', { nullable: true, select: false }) passwordHash?: string | null;
  @Column('timestamptz', { nullable: true }) passwordChangedAt: Date | null;
  @Column('timestamptz', { nullable: true }) deactivatedAt: Date | null;
  @Column('timestamptz', { nullable: true }) anonymizedAt: Date | null;
}

/** The columns a raw `RETURNING` / `SELECT` gives back, mapped onto the entity (no password hash). */
export const STUDENT_COLUMNS =
  'id, organization_id, email, first_name, last_name, external_id, is_inactive, is_anonymized, sso_provider, password_changed_at, deactivated_at, anonymized_at, created_at, updated_at';

export function studentFromRow(r: Record<string, any>): Student {
  const s = new Student();
  s.id = r.id;
  s.organizationId = r.organization_id;
  s.email = r.email;
  s.firstName = r.first_name;
  s.lastName = r.last_name;
  s.externalId = r.external_id;
  s.isInactive = r.is_inactive;
  s.isAnonymized = r.is_anonymized;
  s.ssoProvider = r.sso_provider;
  s.passwordChangedAt = r.password_changed_at ? new Date(r.password_changed_at) : null;
  s.deactivatedAt = r.deactivated_at ? new Date(r.deactivated_at) : null;
  s.anonymizedAt = r.anonymized_at ? new Date(r.anonymized_at) : null;
  s.createdAt = new Date(r.created_at);
  s.updatedAt = new Date(r.updated_at);
  return s;
}
