import { SCOPE_CODENAMES } from '../../core/auth/scopes';
import { scoped } from '../../core/database/scoped';

/**
 * Administrator roles (CONVENTIONS §19, docs/decisions/identity.md): four built-in roles, whose
 * scopes are fixed here, and custom roles of an organization (table admin_roles, a named scope set).
 * An authorization-code token (OAuth apps, MCP clients) holds at most the scopes of the role of the
 * administrator who approved it: adminAllowedScopes() is the one answer to "what may this
 * administrator grant", read by the authorization endpoint, the refresh grant and anything else
 * (the MCP server) that acts for an administrator.
 */
export const BUILTIN_ROLES = ['owner', 'admin', 'content-editor', 'reporter'] as const;
export type BuiltinRole = (typeof BUILTIN_ROLES)[number];

const READ_SCOPES = SCOPE_CODENAMES.filter((s) => s.endsWith(':read'));
/** The writes of a content editor: courses, lessons, content items, assets, web packages, labels, tags, quizzes, question banks, paths, published courses and paths. */
const CONTENT_WRITE_FAMILIES = ['courses', 'lessons', 'content-items', 'assets', 'web-packages', 'labels', 'tags', 'quizzes', 'question-banks', 'paths', 'published-courses'];

export const BUILTIN_ROLE_SCOPES: Record<BuiltinRole, readonly string[]> = {
  owner: [...SCOPE_CODENAMES],
  admin: [...SCOPE_CODENAMES],
  'content-editor': [...READ_SCOPES, ...CONTENT_WRITE_FAMILIES.map((f) => `${f}:write`)].filter((s) => (SCOPE_CODENAMES as readonly string[]).includes(s)),
  reporter: READ_SCOPES,
};

export const isBuiltinRole = (name: string): name is BuiltinRole => (BUILTIN_ROLES as readonly string[]).includes(name);

/** Something that runs a statement: a DataSource, an EntityManager, a pg client. */
export interface Queryable {
  query(sql: string, params?: unknown[]): Promise<any>;
}

/**
 * The scopes an organization's administrator may hold or grant now: their role's scopes (a built-in
 * role's from BUILTIN_ROLE_SCOPES, a custom role's from admin_roles). null when the organization has
 * no such administrator (removed, or another organization's). One statement.
 * `adminUuid` is the internal uuid (decodeId('admin', publicId) of a token's `sub`).
 */
export async function adminAllowedScopes(db: Queryable, organizationId: string, adminUuid: string): Promise<string[] | null> {
  const rows = await scoped(db, organizationId).query<{ role: string; scopes: string[] | null }[]>(
    `SELECT a.role, r.scopes FROM admins a LEFT JOIN admin_roles r ON r.organization_id = a.organization_id AND r.name = a.role
      WHERE a.id = $1 AND a.organization_id = $org`,
    [adminUuid],
  );
  if (!rows.length) return null;
  const { role, scopes } = rows[0];
  if (isBuiltinRole(role)) return [...BUILTIN_ROLE_SCOPES[role]];
  return scopes ?? [];
}

/** `wanted` narrowed to `allowed`, in `wanted`'s order. */
export function narrowTo(wanted: readonly string[], allowed: readonly string[]): string[] {
  const set = new Set(allowed);
  return wanted.filter((s) => set.has(s));
}

/** Records an administrator's sign-in (`admins.last_sign_in_at`), in the caller's transaction: the consent page's approval. */
export async function recordAdminSignIn(db: { query(sql: string, params?: unknown[]): Promise<any> }, organizationId: string, adminId: string): Promise<void> {
  await scoped(db, organizationId).query(`UPDATE admins SET last_sign_in_at = date_trunc('milliseconds', now()) WHERE id = $1 AND organization_id = $org`, [adminId]);
}
