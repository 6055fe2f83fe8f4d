import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { isUniqueViolation, rowsOf } from '../../core/database/sql';
import { ApiError } from '../../core/http/api-error';
import { newUuid } from '../../core/ids/ids';
import { studentExternalId, NOW } from './students.service';
import { scoped } from '../../core/database/scoped';

export interface ProvisionedProfile {
  email: string;
  firstName: string;
  lastName: string;
  active: boolean;
}

/** Thrown when the email is another student's (SCIM answers 409 uniqueness). */
export class EmailTaken extends ApiError {
  constructor() {
    super(409, 'A user with this userName already exists.');
  }
}

/**
 * The writes SCIM provisioning makes on students (the `users` table is this module's): create,
 * replace the profile, deactivate and reactivate. Deactivation only sets `is_inactive` (and
 * `deactivated_at`): nothing is erased (CONVENTIONS §19). An anonymized student is never changed
 * (404 as for an absent one: its identity is gone). Each takes the caller's transaction.
 */
@Injectable()
export class StudentsProvisioning {
  constructor(private readonly ds: DataSource) {}

  async create(m: EntityManager, organizationId: string, p: ProvisionedProfile): Promise<string> {
    const id = newUuid();
    try {
      await scoped(m, organizationId).query(
        `INSERT INTO users (id, organization_id, email, first_name, last_name, external_id, is_inactive, deactivated_at)
         VALUES ($1, $org, lower($2), $3, $4, $5, $6, CASE WHEN $6 THEN ${NOW} END)`,
        [id, p.email, p.firstName, p.lastName, studentExternalId(id), !p.active],
      );
    } catch (err) {
      if (isUniqueViolation(err, 'users_org_email_uq')) throw new EmailTaken();
      throw err;
    }
    return id;
  }

  /** The whole profile as given (SCIM PUT, and PATCH after its operations are applied). false when there is no such (live) student. */
  async replace(m: EntityManager, organizationId: string, id: string, p: ProvisionedProfile): Promise<boolean> {
    try {
      const rows = rowsOf<{ id: string }>(
        await scoped(m, organizationId).query<unknown>(
          `UPDATE users SET email = lower($2), first_name = $3, last_name = $4,
                  deactivated_at = CASE WHEN $5 AND NOT is_inactive THEN ${NOW} WHEN NOT $5 THEN NULL ELSE deactivated_at END,
                  is_inactive = $5, updated_at = ${NOW}
            WHERE id = $1 AND organization_id = $org AND NOT is_anonymized RETURNING id`,
          [id, p.email, p.firstName, p.lastName, !p.active],
        ),
      );
      return rows.length > 0;
    } catch (err) {
      if (isUniqueViolation(err, 'users_org_email_uq')) throw new EmailTaken();
      throw err;
    }
  }

  /** Deactivate (active=false, SCIM DELETE) or reactivate; nothing else changes. false when there is no such (live) student. */
  async setActive(m: EntityManager | DataSource, organizationId: string, id: string, active: boolean): Promise<boolean> {
    const rows = rowsOf<{ id: string }>(
      await scoped(m, organizationId).query<unknown>(
        `UPDATE users SET is_inactive = $2, deactivated_at = CASE WHEN $2 THEN COALESCE(deactivated_at, ${NOW}) END, updated_at = ${NOW}
          WHERE id = $1 AND organization_id = $org AND NOT is_anonymized RETURNING id`,
        [id, !active],
      ),
    );
    return rows.length > 0;
  }
}
