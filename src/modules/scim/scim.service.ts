import { Injectable } from '@nestjs/common';
import { scimPatch } from 'scim-patch';
import { DataSource, EntityManager } from 'typeorm';
import { scoped } from '../../core/database/scoped';
import { isUniqueViolation } from '../../core/database/sql';
import { decodeId, encodeId } from '../../core/ids/ids';
import { GroupNameTaken, GroupsProvisioning } from '../groups/groups.provisioning';
import { EmailTaken, ProvisionedProfile, StudentsProvisioning } from '../students/students.provisioning';
import { compileFilter, ScimAttr, ScimError, scimPaging } from './scim.filter';

export const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';
export const GROUP_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Group';
export const LIST_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';
export const PATCH_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';

const EMAIL = /^[^@\s]+@[^@\s]+$/;

const USER_ATTRS: Record<string, ScimAttr> = {
  id: { sql: 'u.id', type: 'id', decode: (v) => decodeId('student', v) },
  username: { sql: 'u.email', type: 'string', ci: true },
  externalid: { sql: 'l.external_id', type: 'string' },
  'emails.value': { sql: 'u.email', type: 'string', ci: true },
  emails: { sql: 'u.email', type: 'string', ci: true },
  'name.givenname': { sql: 'u.first_name', type: 'string', ci: true },
  'name.familyname': { sql: 'u.last_name', type: 'string', ci: true },
  displayname: { sql: `btrim(u.first_name || ' ' || u.last_name)`, type: 'string', ci: true },
  active: { sql: 'NOT u.is_inactive', type: 'boolean' },
  'meta.created': { sql: 'u.created_at', type: 'date' },
  'meta.lastmodified': { sql: 'u.updated_at', type: 'date' },
};

const GROUP_ATTRS: Record<string, ScimAttr> = {
  id: { sql: 'g.id', type: 'id', decode: (v) => decodeId('group', v) },
  displayname: { sql: 'g.name', type: 'string', ci: true },
  externalid: { sql: 'NULL::text', type: 'string' },
  'members.value': {
    sql: 'EXISTS (SELECT 1 FROM group_memberships gm WHERE gm.organization_id = g.organization_id AND gm.group_id = g.id AND gm.user_id = $value)',
    type: 'member',
    decode: (v) => decodeId('student', v),
  },
  members: {
    sql: 'EXISTS (SELECT 1 FROM group_memberships gm WHERE gm.organization_id = g.organization_id AND gm.group_id = g.id AND gm.user_id = $value)',
    type: 'member',
    decode: (v) => decodeId('student', v),
  },
  'meta.created': { sql: 'g.created_at', type: 'date' },
  'meta.lastmodified': { sql: 'g.updated_at', type: 'date' },
};

interface UserRow {
  id: string;
  email: string;
  first_name: string;
  last_name: string;
  is_inactive: boolean;
  external_id: string | null;
  created_at: Date;
  updated_at: Date;
}

interface GroupRow {
  id: string;
  name: string;
  created_at: Date;
  updated_at: Date;
}

const USER_SELECT = `SELECT u.id, u.email, u.first_name, u.last_name, u.is_inactive, l.external_id, u.created_at, u.updated_at
  FROM users u LEFT JOIN scim_user_links l ON l.organization_id = u.organization_id AND l.user_id = u.id`;

/** Whether a list asks to leave out the groups' members (excludedAttributes=members, as Entra and Okta do). */
const excludesMembers = (q: Record<string, unknown>) =>
  typeof q.excludedAttributes === 'string' &&
  q.excludedAttributes
    .toLowerCase()
    .split(',')
    .map((s) => s.trim())
    .includes('members');

/** A SCIM boolean as sent: true/false, or Entra's "True"/"False" strings. */
function scimBool(v: unknown, name: string): boolean {
  if (typeof v === 'boolean') return v;
  if (typeof v === 'string' && /^(true|false)$/i.test(v)) return v.toLowerCase() === 'true';
  throw new ScimError(400, `${name} must be a boolean.`, 'invalidValue');
}

const str = (v: unknown, name: string, max = 255): string => {
  if (v === undefined || v === null) return '';
  if (typeof v !== 'string' || v.length > max || v.includes('\u0000')) throw new ScimError(400, `${name} must be a string of at most ${max} characters.`, 'invalidValue');
  return v;
};

/**
 * SCIM 2.0 (RFC 7643/7644) over students and groups (CONVENTIONS §19; docs/decisions/identity.md
 * "SCIM"): a User is a /v2 student (userName = email, name, emails, active = not inactive,
 * externalId kept in scim_user_links), a Group is a group with its members. The organization is the
 * token's; every statement names it. Writes go through the owners' provisioning services
 * (StudentsProvisioning, GroupsProvisioning). Lists are one statement for the page and one for the
 * total (plus one for the members of the page's groups): no statement per row.
 */
@Injectable()
export class ScimService {
  constructor(
    private readonly ds: DataSource,
    private readonly students: StudentsProvisioning,
    private readonly groups: GroupsProvisioning,
  ) {}

  // ---- Users

  presentUser(r: UserRow, baseUrl: string) {
    const id = encodeId('student', r.id);
    const display = `${r.first_name} ${r.last_name}`.trim();
    return {
      schemas: [USER_SCHEMA],
      id,
      ...(r.external_id ? { externalId: r.external_id } : {}),
      userName: r.email,
      name: { givenName: r.first_name, familyName: r.last_name, ...(display ? { formatted: display } : {}) },
      ...(display ? { displayName: display } : {}),
      emails: [{ value: r.email, type: 'work', primary: true }],
      active: !r.is_inactive,
      meta: { resourceType: 'User', created: new Date(r.created_at).toISOString(), lastModified: new Date(r.updated_at).toISOString(), location: `${baseUrl}/scim/v2/Users/${id}` },
    };
  }

  async listUsers(org: string, query: Record<string, unknown>, baseUrl: string) {
    const { startIndex, count } = scimPaging(query);
    const params: unknown[] = [];
    let where = 'u.organization_id = $org AND NOT u.is_anonymized';
    if (typeof query.filter === 'string' && query.filter.trim()) where += ` AND (${compileFilter(query.filter, USER_ATTRS, params)})`;
    const from = `FROM users u LEFT JOIN scim_user_links l ON l.organization_id = u.organization_id AND l.user_id = u.id WHERE ${where}`;
    const db = scoped(this.ds, org);
    const [{ n }] = await db.query<{ n: number }[]>(`SELECT count(*)::int AS n ${from}`, params);
    const rows: UserRow[] = count ? await db.query(`${USER_SELECT} WHERE ${where} ORDER BY u.created_at, u.id LIMIT ${count} OFFSET ${startIndex - 1}`, params) : [];
    return { schemas: [LIST_SCHEMA], totalResults: n, startIndex, itemsPerPage: rows.length, Resources: rows.map((r) => this.presentUser(r, baseUrl)) };
  }

  private async userRow(db: EntityManager | DataSource, org: string, publicId: string, lock = false): Promise<UserRow> {
    const id = decodeId('student', publicId);
    const rows = id ? await scoped(db, org).query<UserRow[]>(`${USER_SELECT} WHERE u.id = $1 AND u.organization_id = $org AND NOT u.is_anonymized${lock ? ' FOR UPDATE OF u' : ''}`, [id]) : [];
    if (!rows.length) throw new ScimError(404, `User ${String(publicId).slice(0, 64)} not found.`);
    return rows[0];
  }

  async getUser(org: string, publicId: string, baseUrl: string) {
    return this.presentUser(await this.userRow(this.ds, org, publicId), baseUrl);
  }

  /** The profile a SCIM User body describes: userName (an email) required; emails[primary] is not a second email. */
  private profileOf(body: any): { profile: ProvisionedProfile; externalId: string | null } {
    if (!body || typeof body !== 'object' || Array.isArray(body)) throw new ScimError(400, 'The body must be a SCIM User.', 'invalidSyntax');
    const userName = body.userName;
    if (typeof userName !== 'string' || !userName.trim()) throw new ScimError(400, 'userName is required.', 'invalidValue');
    if (!EMAIL.test(userName.trim()) || userName.length > 320) throw new ScimError(400, 'userName must be an email address.', 'invalidValue');
    const name = body.name && typeof body.name === 'object' ? body.name : {};
    const externalId = body.externalId === undefined || body.externalId === null ? null : str(body.externalId, 'externalId', 255) || null;
    return {
      profile: {
        email: userName.trim(),
        firstName: str(name.givenName, 'name.givenName'),
        lastName: str(name.familyName, 'name.familyName'),
        active: body.active === undefined ? true : scimBool(body.active, 'active'),
      },
      externalId,
    };
  }

  private async link(m: EntityManager, org: string, userId: string, externalId: string | null) {
    try {
      if (externalId === null) await scoped(m, org).query(`DELETE FROM scim_user_links WHERE organization_id = $org AND user_id = $1`, [userId]);
      else
        await scoped(m, org).query(
          `INSERT INTO scim_user_links (organization_id, user_id, external_id) VALUES ($org, $1, $2)
           ON CONFLICT (organization_id, user_id) DO UPDATE SET external_id = EXCLUDED.external_id`,
          [userId, externalId],
        );
    } catch (err) {
      if (isUniqueViolation(err)) throw new ScimError(409, 'Another user has this externalId.', 'uniqueness');
      throw err;
    }
  }

  private uniqueness<T>(p: Promise<T>): Promise<T> {
    return p.catch((err) => {
      if (err instanceof EmailTaken || err instanceof GroupNameTaken) throw new ScimError(409, err.detail, 'uniqueness');
      throw err;
    });
  }

  async createUser(org: string, body: unknown, baseUrl: string) {
    const { profile, externalId } = this.profileOf(body);
    const id = await this.uniqueness(
      this.ds.transaction(async (m) => {
        const uid = await this.students.create(m, org, profile);
        if (externalId) await this.link(m, org, uid, externalId);
        return uid;
      }),
    );
    return this.getUser(org, encodeId('student', id), baseUrl);
  }

  async replaceUser(org: string, publicId: string, body: unknown, baseUrl: string) {
    const { profile, externalId } = this.profileOf(body);
    await this.uniqueness(
      this.ds.transaction(async (m) => {
        const row = await this.userRow(m, org, publicId, true);
        await this.students.replace(m, org, row.id, profile);
        await this.link(m, org, row.id, externalId);
      }),
    );
    return this.getUser(org, publicId, baseUrl);
  }

  /** PATCH (RFC 7644 3.5.2) in Okta's and Entra's shapes, applied by scim-patch to the User as it is, then written back whole. */
  async patchUser(org: string, publicId: string, body: any, baseUrl: string) {
    const ops = patchOperations(body);
    await this.uniqueness(
      this.ds.transaction(async (m) => {
        const row = await this.userRow(m, org, publicId, true);
        const current = this.presentUser(row, baseUrl) as any;
        let next: any;
        try {
          next = scimPatch(structuredClone(current), ops.map(normalizeUserOp) as any);
        } catch (e) {
          throw new ScimError(400, `The patch cannot be applied: ${(e as Error).message}`.slice(0, 300), (e as any)?.scimType ?? 'invalidValue');
        }
        // Entra changes the email through emails[type eq "work"].value: it is the userName here
        const primary = Array.isArray(next.emails) ? (next.emails.find((e: any) => e?.primary) ?? next.emails[0]) : undefined;
        if (next.userName === current.userName && primary?.value && primary.value !== current.emails[0].value) next.userName = primary.value;
        const { profile, externalId } = this.profileOf(next);
        await this.students.replace(m, org, row.id, profile);
        if ((externalId ?? null) !== (row.external_id ?? null)) await this.link(m, org, row.id, externalId);
      }),
    );
    return this.getUser(org, publicId, baseUrl);
  }

  /** DELETE deactivates (active=false): nothing is erased, the user stays readable on /v1 and /v2. */
  async deleteUser(org: string, publicId: string): Promise<void> {
    const id = decodeId('student', publicId);
    if (!id || !(await this.students.setActive(this.ds, org, id, false))) throw new ScimError(404, `User ${String(publicId).slice(0, 64)} not found.`);
  }

  // ---- Groups

  async listGroups(org: string, query: Record<string, unknown>, baseUrl: string) {
    const { startIndex, count } = scimPaging(query);
    const params: unknown[] = [];
    let where = 'g.organization_id = $org';
    if (typeof query.filter === 'string' && query.filter.trim()) where += ` AND (${compileFilter(query.filter, GROUP_ATTRS, params)})`;
    const db = scoped(this.ds, org);
    const [{ n }] = await db.query<{ n: number }[]>(`SELECT count(*)::int AS n FROM groups g WHERE ${where}`, params);
    const rows: GroupRow[] = count
      ? await db.query(`SELECT g.id, g.name, g.created_at, g.updated_at FROM groups g WHERE ${where} ORDER BY g.created_at, g.id LIMIT ${count} OFFSET ${startIndex - 1}`, params)
      : [];
    const members = excludesMembers(query)
      ? null
      : await this.membersOf(
          this.ds,
          org,
          rows.map((r) => r.id),
        );
    return { schemas: [LIST_SCHEMA], totalResults: n, startIndex, itemsPerPage: rows.length, Resources: rows.map((r) => this.presentGroup(r, members, baseUrl)) };
  }

  /** The members of these groups, one statement (the memberships' primary key serves group_id = ANY). */
  private async membersOf(db: EntityManager | DataSource, org: string, groupIds: string[]): Promise<Map<string, { value: string; display: string }[]>> {
    const out = new Map<string, { value: string; display: string }[]>();
    if (!groupIds.length) return out;
    const rows: { group_id: string; user_id: string; email: string }[] = await scoped(db, org).query(
      `SELECT gm.group_id, gm.user_id, u.email FROM group_memberships gm JOIN users u ON u.organization_id = gm.organization_id AND u.id = gm.user_id
        WHERE gm.organization_id = $org AND gm.group_id = ANY($1::uuid[]) ORDER BY gm.created_at, gm.user_id`,
      [groupIds],
    );
    for (const r of rows) {
      let list = out.get(r.group_id);
      if (!list) out.set(r.group_id, (list = []));
      list.push({ value: encodeId('student', r.user_id), display: r.email });
    }
    return out;
  }

  presentGroup(r: GroupRow, members: Map<string, { value: string; display: string }[]> | null, baseUrl: string) {
    const id = encodeId('group', r.id);
    return {
      schemas: [GROUP_SCHEMA],
      id,
      displayName: r.name,
      ...(members ? { members: (members.get(r.id) ?? []).map((mm) => ({ ...mm, $ref: `${baseUrl}/scim/v2/Users/${mm.value}` })) } : {}),
      meta: { resourceType: 'Group', created: new Date(r.created_at).toISOString(), lastModified: new Date(r.updated_at).toISOString(), location: `${baseUrl}/scim/v2/Groups/${id}` },
    };
  }

  async getGroup(org: string, publicId: string, baseUrl: string, query: Record<string, unknown> = {}) {
    const id = decodeId('group', publicId);
    const rows: GroupRow[] = id ? await scoped(this.ds, org).query(`SELECT id, name, created_at, updated_at FROM groups WHERE id = $1 AND organization_id = $org`, [id]) : [];
    if (!rows.length) throw new ScimError(404, `Group ${String(publicId).slice(0, 64)} not found.`);
    const members = excludesMembers(query) ? null : await this.membersOf(this.ds, org, [rows[0].id]);
    return this.presentGroup(rows[0], members, baseUrl);
  }

  private groupBody(body: any): { name: string; members: string[] | undefined } {
    if (!body || typeof body !== 'object' || Array.isArray(body)) throw new ScimError(400, 'The body must be a SCIM Group.', 'invalidSyntax');
    const name = body.displayName;
    if (typeof name !== 'string' || !name.trim() || name.length > 255) throw new ScimError(400, 'displayName is required (at most 255 characters).', 'invalidValue');
    return { name, members: body.members === undefined ? undefined : memberIds(body.members) };
  }

  async createGroup(org: string, body: unknown, baseUrl: string) {
    const { name, members } = this.groupBody(body);
    const id = await this.uniqueness(
      this.ds.transaction(async (m) => {
        const gid = await this.groups.create(m, org, name);
        if (members) await this.groups.addMembers(m, org, gid, members);
        return gid;
      }),
    );
    return this.getGroup(org, encodeId('group', id), baseUrl);
  }

  private async lockGroup(m: EntityManager, org: string, publicId: string): Promise<string> {
    const id = decodeId('group', publicId);
    if (!id || !(await this.groups.exists(m, org, id, true))) throw new ScimError(404, `Group ${String(publicId).slice(0, 64)} not found.`);
    return id;
  }

  async replaceGroup(org: string, publicId: string, body: unknown, baseUrl: string) {
    const { name, members } = this.groupBody(body);
    await this.uniqueness(
      this.ds.transaction(async (m) => {
        const id = await this.lockGroup(m, org, publicId);
        await this.groups.rename(m, org, id, name);
        await this.groups.removeMembers(m, org, id, 'all');
        if (members) await this.groups.addMembers(m, org, id, members);
      }),
    );
    return this.getGroup(org, publicId, baseUrl);
  }

  /**
   * PATCH a group as Okta and Entra send it: add / remove / replace of `members` (with a value list,
   * or `members[value eq "id"]` as the path), replace of `displayName` (by path, or in a value object
   * without a path). Member changes are set-wise, never a read of the whole member list.
   * Answers 204 (Okta and Entra accept it; RFC 7644 3.5.2 allows it).
   */
  async patchGroup(org: string, publicId: string, body: any): Promise<void> {
    const ops = patchOperations(body);
    await this.uniqueness(
      this.ds.transaction(async (m) => {
        const id = await this.lockGroup(m, org, publicId);
        for (const raw of ops) {
          const op = raw.op;
          const path = typeof raw.path === 'string' ? raw.path.trim() : undefined;
          const filtered = path?.match(/^members\[\s*value\s+eq\s+"([^"]*)"\s*\]$/i);
          if (filtered) {
            if (op !== 'remove') throw new ScimError(400, `${op} does not apply to ${path}.`, 'invalidPath');
            const uid = decodeId('student', filtered[1]);
            if (uid) await this.groups.removeMembers(m, org, id, [uid]);
          } else if (path && path.toLowerCase() === 'members') {
            if (op === 'remove' && (raw.value === undefined || raw.value === null)) await this.groups.removeMembers(m, org, id, 'all');
            else {
              const ids = memberIds(raw.value);
              if (op === 'add') await this.groups.addMembers(m, org, id, ids);
              else if (op === 'remove') await this.groups.removeMembers(m, org, id, ids);
              else {
                await this.groups.removeMembers(m, org, id, 'all');
                await this.groups.addMembers(m, org, id, ids);
              }
            }
          } else if (path && path.toLowerCase() === 'displayname') {
            if (op === 'remove') throw new ScimError(400, 'displayName cannot be removed.', 'mutability');
            await this.groups.rename(m, org, id, this.groupBody({ displayName: raw.value }).name);
          } else if (!path && (op === 'replace' || op === 'add') && raw.value && typeof raw.value === 'object' && !Array.isArray(raw.value)) {
            for (const [k, v] of Object.entries(raw.value as Record<string, unknown>)) {
              if (k.toLowerCase() === 'displayname') await this.groups.rename(m, org, id, this.groupBody({ displayName: v }).name);
              else if (k.toLowerCase() === 'members') {
                if (op === 'replace') await this.groups.removeMembers(m, org, id, 'all');
                await this.groups.addMembers(m, org, id, memberIds(v));
              } else if (k.toLowerCase() !== 'id' && k.toLowerCase() !== 'externalid' && k.toLowerCase() !== 'schemas') {
                throw new ScimError(400, `A group has no writable attribute ${k}.`, 'invalidPath');
              }
            }
          } else {
            throw new ScimError(400, `The operation ${op} ${path ?? '(no path)'} does not apply to a group.`, 'invalidPath');
          }
        }
      }),
    );
  }

  async deleteGroup(org: string, publicId: string): Promise<void> {
    const id = decodeId('group', publicId);
    const gone = id ? await this.ds.transaction((m) => this.groups.remove(m, org, id)) : false;
    if (!gone) throw new ScimError(404, `Group ${String(publicId).slice(0, 64)} not found.`);
  }
}

/** The Operations of a PatchOp body, ops lowercased (Entra sends "Add", "Replace", "Remove"). */
function patchOperations(body: any): { op: 'add' | 'remove' | 'replace'; path?: string; value?: unknown }[] {
  if (!body || typeof body !== 'object' || !Array.isArray(body.Operations) || !body.Operations.length || body.Operations.length > 1000) {
    throw new ScimError(400, 'The body must be a PatchOp with 1 to 1000 Operations.', 'invalidSyntax');
  }
  if (Array.isArray(body.schemas) && !body.schemas.includes(PATCH_SCHEMA)) throw new ScimError(400, `schemas must name ${PATCH_SCHEMA}.`, 'invalidSyntax');
  return body.Operations.map((o: any) => {
    const op = typeof o?.op === 'string' ? o.op.toLowerCase() : '';
    if (op !== 'add' && op !== 'remove' && op !== 'replace') throw new ScimError(400, 'Each operation is add, remove or replace.', 'invalidSyntax');
    if (o.path !== undefined && typeof o.path !== 'string') throw new ScimError(400, 'path must be a string.', 'invalidPath');
    return { op, path: o.path, value: o.value };
  });
}

/** A user PATCH operation as scim-patch takes it: Entra's "True"/"False" for active made booleans. */
function normalizeUserOp(o: { op: string; path?: string; value?: any }) {
  let value = o.value;
  if (o.path?.toLowerCase() === 'active' && typeof value === 'string') value = scimBool(value, 'active');
  if (!o.path && value && typeof value === 'object' && typeof value.active === 'string') value = { ...value, active: scimBool(value.active, 'active') };
  return { ...o, value };
}

/** The student uuids of a members value: `[{value: id}]`; ids that are no student's id are left out (they match no one). */
function memberIds(v: unknown): string[] {
  const list = Array.isArray(v) ? v : v && typeof v === 'object' ? [v] : null;
  if (!list || list.length > 10_000) throw new ScimError(400, 'members must be a list of {"value": id}.', 'invalidValue');
  const out: string[] = [];
  for (const item of list) {
    const value = (item as any)?.value;
    if (typeof value !== 'string') throw new ScimError(400, 'members must be a list of {"value": id}.', 'invalidValue');
    const id = decodeId('student', value);
    if (id) out.push(id);
  }
  return out;
}
