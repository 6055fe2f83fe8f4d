import { Injectable } from '@nestjs/common';
import { Type, type Static } from '@sinclair/typebox';
import { DateTime, nullable } from '../../core/openapi/declared-shape';
import { DataSource } from 'typeorm';
import { ALL_SCOPES } from '../../core/auth/scopes';
import type { Principal } from '../../core/auth/principal';
import { isUniqueViolation, rowsOf } from '../../core/database/sql';
import { scoped } from '../../core/database/scoped';
import type { AdminRoleRow } from './admin-roles.store';
import { conflict, forbidden, notFound, ValidationFailed } from '../../core/http/api-error';
import type { V1PageRequest } from '../../core/pagination/v1-page';
import { v1SinceSql } from '../../core/pagination/updated-since';
import { adminAllowedScopes, BUILTIN_ROLE_SCOPES, BUILTIN_ROLES, isBuiltinRole, Queryable } from './admin-roles';

/** A /v1/admin-roles object (an extension), declared once (core/openapi/declared-shape.ts): AdminRoleView and the OpenAPI answer. */
export const ADMIN_ROLE_SCHEMA = Type.Object({
  name: Type.String(),
  scopes: Type.Array(Type.String()),
  builtin: Type.Boolean({ description: 'A built-in role (read-only)' }),
  created_at: nullable(DateTime({ description: 'null for a built-in role' })),
  updated_at: nullable(DateTime({ description: 'null for a built-in role' })),
});
export type AdminRoleView = Static<typeof ADMIN_ROLE_SCHEMA>;

const ROLE_NAME = /^[a-z0-9][a-z0-9_-]{0,62}$/;

/** Who may hand out `scopes`: a caller can never give a role (or an administrator) more than it holds itself. */
export function assertCallerHolds(p: Principal | 'cli', scopes: readonly string[]) {
  if (p === 'cli') return;
  const missing = scopes.filter((s) => !p.scopes.has(s));
  if (missing.length) throw forbidden(`You cannot grant scopes you do not hold: ${missing.slice(0, 10).join(', ')}${missing.length > 10 ? ', ...' : ''}.`);
}

export function checkScopeList(scopes: readonly string[]): string[] {
  const unknown = scopes.filter((s) => !ALL_SCOPES.has(s));
  if (unknown.length) throw new ValidationFailed([{ field: 'scopes', message: `Unknown scope codenames: ${unknown.slice(0, 10).join(', ')}.` }], 400);
  return [...new Set(scopes)];
}

const builtinView = (name: (typeof BUILTIN_ROLES)[number]): AdminRoleView => ({ name, scopes: [...BUILTIN_ROLE_SCOPES[name]], builtin: true, created_at: null, updated_at: null });
const ROLE_COLUMNS = 'name, scopes, created_at, updated_at';

const rowView = (r: AdminRoleRow): AdminRoleView => ({
  name: r.name,
  scopes: r.scopes,
  builtin: false,
  created_at: new Date(r.created_at).toISOString(),
  updated_at: new Date(r.updated_at).toISOString(),
});

/**
 * /v1/admin-roles (extension, `roles:read|write`) and the CLI's role commands: the four built-in
 * roles (read-only) then the organization's custom roles. A custom role is a named scope set; it
 * cannot take a built-in name, and it cannot be deleted while an administrator holds it (409).
 * Shrinking a role narrows the tokens its administrators approved at their next refresh
 * (TokenService.refresh reads adminAllowedScopes).
 */
@Injectable()
export class AdminRolesService {
  constructor(private readonly ds: DataSource) {}

  /** The scopes an administrator may hold or grant now (see adminAllowedScopes); for other modules (the MCP server). */
  adminAllowedScopes(organizationId: string, adminUuid: string, db: Queryable = this.ds): Promise<string[] | null> {
    return adminAllowedScopes(db, organizationId, adminUuid);
  }

  /** The scopes of role `name` in the organization; 400 naming `role` when there is no such role. */
  async scopesOfRole(db: Queryable, organizationId: string, name: string): Promise<string[]> {
    if (isBuiltinRole(name)) return [...BUILTIN_ROLE_SCOPES[name]];
    const rows = await scoped(db, organizationId).query<{ scopes: string[] }[]>(`SELECT scopes FROM admin_roles WHERE organization_id = $org AND name = $1`, [name]);
    if (!rows.length) throw new ValidationFailed([{ field: 'role', message: `"${String(name).slice(0, 64)}" is not a role of this organization.` }], 400);
    return rows[0].scopes;
  }

  async list(p: Principal | string, page: V1PageRequest): Promise<{ rows: AdminRoleView[]; count: number }> {
    const org = typeof p === 'string' ? p : p.organizationId;
    const db = scoped(this.ds, org);
    const since = page.updatedSince;
    if (since) {
      // updated_since: the custom roles changed since (the built-in roles never change), by last change, on admin_roles_org_updated_idx
      const changed = v1SinceSql(page, 'updated_at', 1, 'created_at, id', 'id');
      const [{ n: count }] = await db.query<{ n: number }[]>(`SELECT count(*)::int AS n FROM admin_roles WHERE organization_id = $org${changed.and}`, changed.params);
      const rows = await db.query<AdminRoleRow[]>(
        `SELECT ${ROLE_COLUMNS} FROM admin_roles WHERE organization_id = $org${changed.and} ORDER BY ${changed.order} LIMIT ${page.pageSize} OFFSET ${page.offset}`,
        changed.params,
      );
      return { rows: rows.map(rowView), count };
    }
    const [{ n }] = await db.query<{ n: number }[]>(`SELECT count(*)::int AS n FROM admin_roles WHERE organization_id = $org`);
    const builtins = BUILTIN_ROLES.map(builtinView);
    const total = builtins.length + n;
    const start = page.offset;
    const out: AdminRoleView[] = builtins.slice(start, start + page.pageSize);
    const remaining = page.pageSize - out.length;
    if (remaining > 0) {
      const offset = Math.max(0, start - builtins.length);
      const rows = await db.query<AdminRoleRow[]>(`SELECT ${ROLE_COLUMNS} FROM admin_roles WHERE organization_id = $org ORDER BY created_at, id LIMIT ${remaining} OFFSET ${offset}`);
      out.push(...rows.map(rowView));
    }
    return { rows: out, count: total };
  }

  async get(p: Principal | string, name: string): Promise<AdminRoleView> {
    const org = typeof p === 'string' ? p : p.organizationId;
    if (isBuiltinRole(name)) return builtinView(name);
    const rows = await scoped(this.ds, org).query<AdminRoleRow[]>(`SELECT ${ROLE_COLUMNS} FROM admin_roles WHERE organization_id = $org AND name = $1`, [name]);
    if (!rows.length) throw notFound();
    return rowView(rows[0]);
  }

  async create(p: Principal | 'cli', dto: { name: string; scopes: string[] }, orgId?: string): Promise<AdminRoleView> {
    const org = p === 'cli' ? orgId! : p.organizationId;
    if (!ROLE_NAME.test(dto.name)) throw new ValidationFailed([{ field: 'name', message: 'A role name is 1 to 63 lowercase letters, digits, "-" or "_", starting with a letter or digit.' }], 400);
    if (isBuiltinRole(dto.name)) throw new ValidationFailed([{ field: 'name', message: `"${dto.name}" is a built-in role.` }], 400);
    const scopes = checkScopeList(dto.scopes);
    assertCallerHolds(p, scopes);
    try {
      const [row] = await scoped(this.ds, org).query<AdminRoleRow[]>(`INSERT INTO admin_roles (organization_id, name, scopes) VALUES ($org, $1, $2) RETURNING ${ROLE_COLUMNS}`, [dto.name, scopes]);
      return rowView(row);
    } catch (err) {
      if (isUniqueViolation(err)) throw new ValidationFailed([{ field: 'name', message: 'A role with this name already exists.' }], 400);
      throw err;
    }
  }

  async update(p: Principal | 'cli', name: string, dto: { scopes?: string[] }, orgId?: string): Promise<AdminRoleView> {
    const org = p === 'cli' ? orgId! : p.organizationId;
    if (isBuiltinRole(name)) throw forbidden('A built-in role cannot be changed.');
    if (dto.scopes === undefined) return this.get(org, name);
    const scopes = checkScopeList(dto.scopes);
    assertCallerHolds(p, scopes);
    const [row] = rowsOf<AdminRoleRow>(
      await scoped(this.ds, org).query<unknown>(
        `UPDATE admin_roles SET scopes = $2, updated_at = date_trunc('milliseconds', now()) WHERE organization_id = $org AND name = $1 RETURNING ${ROLE_COLUMNS}`,
        [name, scopes],
      ),
    );
    if (!row) throw notFound();
    return rowView(row);
  }

  async remove(p: Principal | 'cli', name: string, orgId?: string): Promise<void> {
    const org = p === 'cli' ? orgId! : p.organizationId;
    if (isBuiltinRole(name)) throw forbidden('A built-in role cannot be deleted.');
    await scoped(this.ds, org).transaction(async (tx) => {
      const role = await tx.query<{ id: string }[]>(`SELECT id FROM admin_roles WHERE organization_id = $org AND name = $1 FOR UPDATE`, [name]);
      if (!role.length) throw notFound();
      // administrators change role under this lock's protection: AdminsService locks the role row it assigns (FOR SHARE)
      const [{ n }] = await tx.query<{ n: number }[]>(`SELECT count(*)::int AS n FROM admins WHERE organization_id = $org AND role = $1`, [name]);
      if (n > 0) throw conflict(`${n} administrator(s) hold this role; give them another role first.`);
      await tx.query(`DELETE FROM admin_roles WHERE organization_id = $org AND name = $1`, [name]);
    });
  }
}
