import { Injectable, Optional } from '@nestjs/common';
import { Type, type Static } from '@sinclair/typebox';
import * as argon2 from 'argon2';
import { randomBytes } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { AuthService } from '../../core/auth/auth.service';
import type { Principal } from '../../core/auth/principal';
import { isUniqueViolation, rowsOf } from '../../core/database/sql';
import { scoped } from '../../core/database/scoped';
import { ApiError, conflict, notFound, ValidationFailed } from '../../core/http/api-error';
import { decodeId, encodeId } from '../../core/ids/ids';
import { DateTime, nullable, PublicId } from '../../core/openapi/declared-shape';
import type { V1PageRequest } from '../../core/pagination/v1-page';
import { v1SinceSql } from '../../core/pagination/updated-since';
import { isBuiltinRole } from './admin-roles';
import { AdminRolesService, assertCallerHolds } from './admin-roles.service';
import { ARGON2_OPTIONS } from './organizations.service';
import { OrganizationOAuth } from './organization-oauth';

export const ADMIN_PASSWORD_MIN = 8;
const EMAIL = /^[^@\s]+@[^@\s]+$/;

/** A generated administrator password: 24 characters of base64url (144 random bits). */
export const generatePassword = () => randomBytes(18).toString('base64url');

/** An administrator as the API shows them. @table admins */
export interface AdminRow {
  id: string;
  email: string;
  role: string;
  created_at: Date;
  last_sign_in_at: Date | null;
}

/** The /v1/admins object (an extension), declared once (core/openapi/declared-shape.ts): presentAdmin's type and the OpenAPI answer. */
export const ADMIN_SCHEMA = Type.Object({
  id: PublicId(),
  email: Type.String(),
  role: Type.String({ description: 'A built-in role (owner, admin, content-editor, reporter) or a custom role' }),
  created_at: DateTime(),
  last_sign_in_at: nullable(DateTime({ description: 'null until the first sign-in' })),
});
export type AdminV1 = Static<typeof ADMIN_SCHEMA>;

/** The /v1/admins object: `{id, email, role, created_at, last_sign_in_at}`. */
export function presentAdmin(r: AdminRow): AdminV1 {
  return {
    id: encodeId('admin', r.id),
    email: r.email,
    role: r.role,
    created_at: new Date(r.created_at).toISOString(),
    last_sign_in_at: r.last_sign_in_at ? new Date(r.last_sign_in_at).toISOString() : null,
  };
}

const COLUMNS = 'id, email, role, created_at, last_sign_in_at';

/**
 * Organization administrators: /v1/admins (extension, `admin-users:read|write`) and the CLI
 * (create-admin, reset-admin-password, list-admins, set-admin-role, remove-admin). They sign in on the
 * OAuth authorization page with a password (argon2id, ARGON2_OPTIONS) or through the organization's
 * identity provider (then they may have no password). E-mails are unique on the server
 * (admins_email_uq), lowercased. Each has a role (admin-roles.ts); the last owner of an organization
 * cannot be removed or demoted (the owners' rows are locked while that is checked). Removing an
 * administrator revokes every token family they approved, so the apps' access tokens stop working
 * within AUTH_CACHE_SECONDS.
 */
@Injectable()
export class AdminsService {
  constructor(
    private readonly ds: DataSource,
    private readonly roles: AdminRolesService,
    private readonly oauth: OrganizationOAuth,
    /** absent in the CLI (no Redis): the revoked families are then refused within AUTH_CACHE_SECONDS */
    @Optional() private readonly auth?: AuthService,
  ) {}

  private checkPassword(password: string, field = 'password') {
    if (password.length < ADMIN_PASSWORD_MIN) throw new ValidationFailed([{ field, message: `The password must have at least ${ADMIN_PASSWORD_MIN} characters.` }], 400);
    if (password.length > 1024) throw new ValidationFailed([{ field, message: 'The password must have at most 1024 characters.' }], 400);
  }

  private checkEmail(email: string, field = 'email'): string {
    const e = email.trim().toLowerCase();
    if (!EMAIL.test(e) || e.length > 320) throw new ValidationFailed([{ field, message: 'Enter a valid email address.' }], 400);
    return e;
  }

  /** CLI create-admin (an owner unless `role` says otherwise). */
  async create(organizationId: string, email: string, password: string, role = 'owner'): Promise<{ organization_id: string; admin_id: string; email: string; role: string }> {
    let e: string;
    try {
      e = this.checkEmail(email);
      this.checkPassword(password);
    } catch (err) {
      if (err instanceof ValidationFailed) throw new ApiError(400, err.message.includes('password') ? err.message : '--email is not an email address.');
      throw err;
    }
    const row = await this.insert('cli', organizationId, { email: e, role, password });
    return { organization_id: encodeId('organization', organizationId), admin_id: encodeId('admin', row.id), email: row.email, role: row.role };
  }

  private async insert(p: Principal | 'cli', organizationId: string, dto: { email: string; role: string; password?: string | null }): Promise<AdminRow> {
    const hash = dto.password ? await argon2.hash(dto.password, ARGON2_OPTIONS) : null;
    try {
      return await this.ds.transaction(async (m) => {
        assertCallerHolds(p, await this.lockRole(m, organizationId, dto.role));
        const [row] = await scoped(m, organizationId).query<AdminRow[]>(`INSERT INTO admins (organization_id, email, password_hash, role) VALUES ($org, $1, $2, $3) RETURNING ${COLUMNS}`, [
          dto.email,
          hash,
          dto.role,
        ]);
        return row;
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw new ValidationFailed([{ field: 'email', message: 'An administrator with this email already exists.' }], 400);
      throw err;
    }
  }

  /** The role's scopes; a custom role's row is locked (FOR SHARE) so that it cannot be deleted while it is being assigned. */
  private async lockRole(m: EntityManager, organizationId: string, role: string): Promise<string[]> {
    if (!isBuiltinRole(role)) await scoped(m, organizationId).query(`SELECT 1 FROM admin_roles WHERE organization_id = $org AND name = $1 FOR SHARE`, [role]);
    return this.roles.scopesOfRole(m, organizationId, role);
  }

  /** Just-in-time creation at a single sign-on: no password. null when the e-mail is another organization's administrator. */
  async createForSso(organizationId: string, email: string, role: string): Promise<{ id: string } | null> {
    try {
      const row = await this.insert('cli', organizationId, { email: email.toLowerCase(), role, password: null });
      return { id: row.id };
    } catch (err) {
      if (err instanceof ValidationFailed) return null;
      throw err;
    }
  }

  async list(p: Principal | string, page: V1PageRequest): Promise<{ rows: AdminRow[]; count: number }> {
    const org = typeof p === 'string' ? p : p.organizationId;
    const db = scoped(this.ds, org);
    // updated_since: the administrators changed since (email, role, password; a sign-in is no change), by last change, on admins_org_updated_idx
    const since = v1SinceSql(page, 'updated_at', 1, 'created_at, id', 'id');
    const [{ n }] = await db.query<{ n: number }[]>(`SELECT count(*)::int AS n FROM admins WHERE organization_id = $org${since.and}`, since.params);
    const rows = await db.query<AdminRow[]>(
      `SELECT ${COLUMNS} FROM admins WHERE organization_id = $org${since.and} ORDER BY ${since.order} LIMIT ${page.pageSize} OFFSET ${page.offset}`,
      since.params,
    );
    return { rows, count: n };
  }

  async get(p: Principal, publicId: string): Promise<AdminRow> {
    const id = decodeId('admin', publicId);
    const rows = id ? await scoped(this.ds, p.organizationId).query<AdminRow[]>(`SELECT ${COLUMNS} FROM admins WHERE id = $1 AND organization_id = $org`, [id]) : [];
    if (!rows.length) throw notFound();
    return rows[0];
  }

  async createByApi(p: Principal, dto: { email: string; role: string; password?: string }): Promise<AdminRow> {
    const email = this.checkEmail(dto.email);
    if (dto.password !== undefined) this.checkPassword(dto.password);
    return this.insert(p, p.organizationId, { email, role: dto.role, password: dto.password });
  }

  /** PUT/PATCH: `email`, `role`, `password` as given. */
  async update(p: Principal | 'cli', publicId: string, dto: { email?: string; role?: string; password?: string }, orgId?: string): Promise<AdminRow> {
    const org = p === 'cli' ? orgId! : p.organizationId;
    const id = decodeId('admin', publicId);
    if (!id) throw notFound();
    const email = dto.email !== undefined ? this.checkEmail(dto.email) : null;
    if (dto.password !== undefined) this.checkPassword(dto.password);
    const hash = dto.password !== undefined ? await argon2.hash(dto.password, ARGON2_OPTIONS) : null;
    const row = await this.ds
      .transaction(async (m) => {
        const current = await this.lockOwnersAnd(m, org, id);
        if (dto.role !== undefined && dto.role !== current.role) {
          assertCallerHolds(p, await this.lockRole(m, org, dto.role));
          if (p !== 'cli' && current.role !== 'owner') assertCallerHolds(p, await this.roles.scopesOfRole(m, org, current.role));
          if (current.role === 'owner' && current.owners <= 1) throw conflict('The last owner of the organization cannot be demoted.');
        }
        const [r] = rowsOf<AdminRow>(
          await scoped(m, org).query<unknown>(
            `UPDATE admins SET email = COALESCE($2, email), role = COALESCE($3, role), password_hash = COALESCE($4, password_hash), updated_at = date_trunc('milliseconds', now())
              WHERE id = $1 AND organization_id = $org RETURNING ${COLUMNS}`,
            [id, email, dto.role ?? null, hash],
          ),
        );
        return r;
      })
      .catch((err) => {
        if (isUniqueViolation(err)) throw new ValidationFailed([{ field: 'email', message: 'An administrator with this email already exists.' }], 400);
        throw err;
      });
    return row;
  }

  /** The administrator's role and the organization's owner count, with the owners' rows and the target's locked. */
  private async lockOwnersAnd(m: EntityManager, org: string, id: string): Promise<{ role: string; owners: number }> {
    const rows = await scoped(m, org).query<{ id: string; role: string }[]>(`SELECT id, role FROM admins WHERE organization_id = $org AND (role = 'owner' OR id = $1) ORDER BY id FOR UPDATE`, [id]);
    const target = rows.find((r) => r.id === id);
    if (!target) throw notFound();
    return { role: target.role, owners: rows.filter((r) => r.role === 'owner').length };
  }

  async remove(p: Principal | 'cli', publicId: string, orgId?: string): Promise<void> {
    const org = p === 'cli' ? orgId! : p.organizationId;
    const id = decodeId('admin', publicId);
    if (!id) throw notFound();
    const revoked = await this.ds.transaction(async (m) => {
      const current = await this.lockOwnersAnd(m, org, id);
      if (current.role === 'owner' && current.owners <= 1) throw conflict('The last owner of the organization cannot be removed.');
      if (p !== 'cli' && current.role !== 'owner') assertCallerHolds(p, await this.roles.scopesOfRole(m, org, current.role));
      if (p !== 'cli' && current.role === 'owner') assertCallerHolds(p, await this.roles.scopesOfRole(m, org, 'owner'));
      await scoped(m, org).query(`DELETE FROM admins WHERE id = $1 AND organization_id = $org`, [id]);
      return this.oauth.revokeFamiliesOfSubject(m, org, encodeId('admin', id));
    });
    for (const f of revoked) this.auth?.forgetFamily(f);
  }

  /** A new password for the organization's administrator with this e-mail; unknown (in that organization): 404. */
  async resetPassword(organizationId: string, email: string, password: string): Promise<{ organization_id: string; admin_id: string; email: string; role: string }> {
    if (password.length < ADMIN_PASSWORD_MIN) throw new ApiError(400, `The password must have at least ${ADMIN_PASSWORD_MIN} characters.`);
    if (password.length > 1024) throw new ApiError(400, 'The password must have at most 1024 characters.');
    const hash = await argon2.hash(password, ARGON2_OPTIONS);
    const [row] = rowsOf<{ id: string; organization_id: string; email: string; role: string }>(
      await scoped(this.ds, organizationId).query<unknown>(
        `UPDATE admins SET password_hash = $2 WHERE organization_id = $org AND lower(email) = lower($1) RETURNING id, organization_id, email, role`,
        [email.trim(), hash],
      ),
    );
    if (!row) throw new ApiError(404, 'The organization has no administrator with this email.');
    return { organization_id: encodeId('organization', row.organization_id), admin_id: encodeId('admin', row.id), email: row.email, role: row.role };
  }

  /** The organization's administrator with this e-mail (CLI commands that name an administrator by e-mail). */
  async idByEmail(organizationId: string, email: string): Promise<string> {
    const rows = await scoped(this.ds, organizationId).query<{ id: string }[]>(`SELECT id FROM admins WHERE organization_id = $org AND lower(email) = lower($1)`, [email.trim()]);
    if (!rows.length) throw new ApiError(404, 'The organization has no administrator with this email.');
    return encodeId('admin', rows[0].id);
  }
}
