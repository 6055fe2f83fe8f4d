import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { Principal } from '../../core/auth/principal';
import { rowsOf } from '../../core/database/sql';
import { scoped } from '../../core/database/scoped';
import { notFound, ValidationFailed } from '../../core/http/api-error';
import { DRF } from '../../core/http/drf-messages';
import { fieldError } from '../../core/http/v1-rules';
import { decodeId } from '../../core/ids/ids';
import type { V1PageRequest } from '../../core/pagination/v1-page';
import type { Upserted } from '../../core/routes/v1-resource';
import type { GroupPoolRow, GroupUserRow, UserGroupRow } from './groups.v1.shape';
import { REGISTERED } from '../students/users.v1.service';
import { GroupsV1Service, invalidPk } from './groups.v1.service';

/**
 * A link table between a group and another object of the organization: group_memberships (users)
 * and group_access_code_pools (access code pools). Both are (group_id, <column>, organization_id)
 * with a unique (group_id, <column>); they differ only in the names below, so one set of
 * functions serves both.
 */
interface GroupLink {
  /** the link table and its alias in `from` */
  table: string;
  alias: string;
  /** the linked object's column in the link table, and its own table (checked on add) */
  column: string;
  target: string;
  /** the body member that names the linked object (`{<member>: {id}}`) and its public id kind */
  member: string;
  kind: 'student' | 'accessCodePool';
  /** what an INSERT or DELETE of a link returns (only its presence is read) */
  returning: string;
  /** the columns of an answered row and the join that provides them */
  select: string;
  from: string;
}

// users is the students module's table: a narrow join for the four member fields
const MEMBERSHIPS: GroupLink = {
  table: 'group_memberships',
  alias: 'gm',
  column: 'user_id',
  target: 'users',
  member: 'user',
  kind: 'student',
  returning: 'user_id',
  select: 'gm.user_id, u.email, u.first_name, u.last_name, gm.created_at',
  from: 'group_memberships gm JOIN users u ON u.id = gm.user_id AND u.organization_id = gm.organization_id',
};

// access_code_pools is the access-codes module's table; its service resolves pools per domain
// only, so pools are read here with narrow organization-filtered queries (id, name).
const POOLS: GroupLink = {
  table: 'group_access_code_pools',
  alias: 'l',
  column: 'access_code_pool_id',
  target: 'access_code_pools',
  member: 'access_code_pool',
  kind: 'accessCodePool',
  returning: 'group_id',
  select: 'l.access_code_pool_id, acp.name, l.created_at',
  from: 'group_access_code_pools l JOIN access_code_pools acp ON acp.id = l.access_code_pool_id AND acp.organization_id = l.organization_id',
};

/**
 * The links of one kind between the caller's groups and other objects of the organization, for
 * `/v1/groups/{group_id}/<kind>` (list, add, read, remove). The group is resolved by
 * GroupsV1Service (404 outside the caller's organization); every statement filters on the
 * caller's organization.
 */
export class GroupLinkRows<R> {
  constructor(
    private readonly ds: DataSource,
    private readonly groups: GroupsV1Service,
    private readonly k: GroupLink,
  ) {}

  /**
   * `updatedSince`: links made at or after it. A link is made and removed, never changed, so its
   * creation is its last change and the order (created_at) is already by last change
   * (docs/decisions/data-out.md), on the (group_id, created_at, ...) index.
   */
  async list(p: Principal, groupPublicId: string, page: V1PageRequest, f: { updatedSince?: Date } = {}): Promise<{ rows: R[]; count: number }> {
    const k = this.k;
    const groupId = await this.groups.requireGroupId(p, groupPublicId);
    const since = f.updatedSince ? ` AND ${k.alias}.created_at >= $2` : '';
    const params = f.updatedSince ? [groupId, f.updatedSince] : [groupId];
    const [{ n }] = await scoped(this.ds, p.organizationId).query<{ n: number }[]>(
      `SELECT count(*)::int AS n FROM ${k.table} ${k.alias} WHERE ${k.alias}.group_id = $1 AND ${k.alias}.organization_id = $org${since}`,
      params,
    );
    const rows: R[] = await scoped(this.ds, p.organizationId).query(
      `SELECT ${k.select}
         FROM ${k.from}
        WHERE ${k.alias}.group_id = $1 AND ${k.alias}.organization_id = $org${since}
        ORDER BY ${k.alias}.created_at, ${k.alias}.${k.column} LIMIT ${page.pageSize} OFFSET ${page.offset}`,
      params,
    );
    return { rows, count: n };
  }

  /** `{<member>: {id}}`: an object of the organization (else 400). Idempotent: an existing link is answered as is (created: false). */
  async add(p: Principal, groupPublicId: string, body: unknown): Promise<Upserted<R>> {
    const k = this.k;
    const groupId = await this.groups.requireGroupId(p, groupPublicId);
    const sent = linkedIdOf(body, k.member);
    const id = decodeId(k.kind, sent);
    const found = id ? await scoped(this.ds, p.organizationId).query<{ id: string }[]>(`SELECT id FROM ${k.target} WHERE id = $1 AND organization_id = $org`, [id]) : [];
    if (!found.length) throw invalidPk(k.member, sent);
    const inserted = await scoped(this.ds, p.organizationId).query<unknown[]>(
      `INSERT INTO ${k.table} (group_id, ${k.column}, organization_id) SELECT $1, $2, $org
        WHERE EXISTS (SELECT 1 FROM groups WHERE id = $1 AND organization_id = $org)
       ON CONFLICT (group_id, ${k.column}) DO NOTHING RETURNING ${k.returning}`,
      [groupId, id],
    );
    const row = await this.link(p, groupId, id!);
    if (!row) throw notFound('Not found.'); // the group was deleted meanwhile
    return { view: row, created: inserted.length > 0 };
  }

  async read(p: Principal, groupPublicId: string, linkedPublicId: string): Promise<R> {
    const groupId = await this.groups.requireGroupId(p, groupPublicId);
    const id = decodeId(this.k.kind, linkedPublicId);
    const row = id ? await this.link(p, groupId, id) : null;
    if (!row) throw notFound('Not found.');
    return row;
  }

  async remove(p: Principal, groupPublicId: string, linkedPublicId: string): Promise<void> {
    const k = this.k;
    const groupId = await this.groups.requireGroupId(p, groupPublicId);
    const id = decodeId(k.kind, linkedPublicId);
    const rows = id
      ? rowsOf<unknown>(
          await scoped(this.ds, p.organizationId).query<unknown>(`DELETE FROM ${k.table} WHERE group_id = $1 AND ${k.column} = $2 AND organization_id = $org RETURNING ${k.returning}`, [groupId, id]),
        )
      : [];
    if (!rows.length) throw notFound('Not found.');
  }

  private async link(p: Principal, groupId: string, linkedId: string): Promise<R | null> {
    const k = this.k;
    const rows: R[] = await scoped(this.ds, p.organizationId).query(
      `SELECT ${k.select}
         FROM ${k.from}
        WHERE ${k.alias}.group_id = $1 AND ${k.alias}.${k.column} = $2 AND ${k.alias}.organization_id = $org`,
      [groupId, linkedId],
    );
    return rows[0] ?? null;
  }
}

/** /v1 group users and group access code pools, and a user's groups. */
@Injectable()
export class GroupLinksV1Service {
  /** `{user: {id}}`: users of the organization */
  readonly users: GroupLinkRows<GroupUserRow>;
  /** `{access_code_pool: {id}}`: access code pools of the organization */
  readonly pools: GroupLinkRows<GroupPoolRow>;

  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    groups: GroupsV1Service,
  ) {
    this.users = new GroupLinkRows(ds, groups, MEMBERSHIPS);
    this.pools = new GroupLinkRows(ds, groups, POOLS);
  }

  /** /v1/users/{user_id}/groups: the groups of a user of the organization (404 for any other id). */
  async listUserGroups(p: Principal, userPublicId: string, page: V1PageRequest, updatedSince?: Date): Promise<{ rows: UserGroupRow[]; count: number }> {
    const userId = decodeId('student', userPublicId);
    // a /v1 user is one registered on a domain of the organization (CONVENTIONS §10): any other id is 404, as on GET /v1/users/{id}
    const users = userId
      ? await scoped(this.ds, p.organizationId).query<{ id: string }[]>(`SELECT u.id FROM users u WHERE u.id = $1 AND u.organization_id = $org AND ${REGISTERED('u')}`, [userId])
      : [];
    if (!users.length) throw notFound('Not found.');
    // updated_since: memberships made at or after it (a membership's creation is its last change), on (user_id, created_at, group_id)
    const since = updatedSince ? ' AND gm.created_at >= $2' : '';
    const params = updatedSince ? [userId, updatedSince] : [userId];
    const [{ n }] = await scoped(this.ds, p.organizationId).query<{ n: number }[]>(
      `SELECT count(*)::int AS n FROM group_memberships gm WHERE gm.user_id = $1 AND gm.organization_id = $org${since}`,
      params,
    );
    const rows: UserGroupRow[] = await scoped(this.ds, p.organizationId).query(
      `SELECT gm.group_id, g.name, gm.created_at
         FROM group_memberships gm JOIN groups g ON g.id = gm.group_id AND g.organization_id = gm.organization_id
        WHERE gm.user_id = $1 AND gm.organization_id = $org${since}
        ORDER BY gm.created_at, gm.group_id LIMIT ${page.pageSize} OFFSET ${page.offset}`,
      params,
    );
    return { rows, count: n };
  }
}

/**
 * The id of a linked object sent as `{<member>: {id}}`. A missing member is "This field is
 * required."; any other shape is one 400 on the member.
 */
function linkedIdOf(body: unknown, member: string): string {
  const b = (body ?? {}) as Record<string, unknown>;
  const v = b[member];
  if (v === undefined || v === null) throw new ValidationFailed([{ field: member, message: v === null ? 'This field may not be null.' : 'This field is required.' }], 400);
  if (typeof v !== 'object' || Array.isArray(v)) throw fieldError(member, DRF.dict(v));
  const id = (v as Record<string, unknown>).id;
  if (id === undefined || id === null) throw fieldError(`${member}.id`, 'This field is required.');
  if (typeof id !== 'string' || !id.length) throw fieldError(`${member}.id`, 'Not a valid string.');
  return id;
}
