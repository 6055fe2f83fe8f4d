import { Injectable } from '@nestjs/common';
import * as argon2 from 'argon2';
import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { isUniqueViolation, rowsOf } from '../../core/database/sql';
import { ApiError } from '../../core/http/api-error';
import { encodeId } from '../../core/ids/ids';
import { ARGON2_OPTIONS } from './organizations.service';

export const ADMIN_PASSWORD_MIN = 8;
const EMAIL = /^[^@\s]+@[^@\s]+$/;

/** A generated administrator password: 24 characters of base64url (144 random bits). */
export const generatePassword = () => randomBytes(18).toString('base64url');

/**
 * Organization administrators (CLI only: create-admin, reset-admin-password). They sign in on the
 * OAuth authorization page; passwords are stored as argon2id hashes (ARGON2_OPTIONS, as create-org
 * does) and never kept or printed otherwise. E-mails are unique on the server (admins_email_uq),
 * lowercased.
 */
@Injectable()
export class AdminsService {
  constructor(private readonly ds: DataSource) {}

  private checkPassword(password: string) {
    if (password.length < ADMIN_PASSWORD_MIN) throw new ApiError(400, `The password must have at least ${ADMIN_PASSWORD_MIN} characters.`);
    if (password.length > 1024) throw new ApiError(400, 'The password must have at most 1024 characters.');
  }

  async create(organizationId: string, email: string, password: string): Promise<{ organization_id: string; admin_id: string; email: string }> {
    const e = email.trim().toLowerCase();
    if (!EMAIL.test(e) || e.length > 320) throw new ApiError(400, '--email is not an email address.');
    this.checkPassword(password);
    const hash = await argon2.hash(password, ARGON2_OPTIONS);
    try {
      const [row] = await this.ds.query(`INSERT INTO admins (organization_id, email, password_hash) VALUES ($1, $2, $3) RETURNING id`, [organizationId, e, hash]);
      return { organization_id: encodeId('organization', organizationId), admin_id: encodeId('admin', row.id), email: e };
    } catch (err) {
      if (isUniqueViolation(err)) throw new ApiError(409, 'An administrator with this email already exists.');
      throw err;
    }
  }

  /** A new password for the organization's administrator with this e-mail; unknown (in that organization): 404. */
  async resetPassword(organizationId: string, email: string, password: string): Promise<{ organization_id: string; admin_id: string; email: string }> {
    this.checkPassword(password);
    const hash = await argon2.hash(password, ARGON2_OPTIONS);
    const [row] = rowsOf<{ id: string; organization_id: string; email: string }>(
      await this.ds.query(`UPDATE admins SET password_hash = $3 WHERE organization_id = $1 AND lower(email) = lower($2) RETURNING id, organization_id, email`, [
        organizationId,
        email.trim(),
        hash,
      ]),
    );
    if (!row) throw new ApiError(404, 'The organization has no administrator with this email.');
    return { organization_id: encodeId('organization', row.organization_id), admin_id: encodeId('admin', row.id), email: row.email };
  }
}
