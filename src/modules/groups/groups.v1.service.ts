import { DRF } from '../../core/http/drf-messages';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { Principal } from '../../core/auth/principal';
import { notFound, ValidationFailed } from '../../core/http/api-error';
import { fieldError } from '../../core/http/v1-rules';
import { decodeId } from '../../core/ids/ids';
import type { V1PageRequest } from '../../core/pagination/v1-page';
import { MAX_RULE_DOMAINS } from './dto/group.dto';
import { V1EmailDomainRulePatchDto, V1GroupCreateDto, V1GroupPatchDto } from './dto/v1-group.dto';
import { Group, groupFromRow } from './group.entity';
import { isGroupNameConflict, normalizeDomains } from './groups.service';
import type { GroupPoolRow, GroupUserRow, SignUpFieldRule, UserGroupRow } from './groups.v1.presenter';
import { rowsOf } from '../../core/database/sql';

const NOW = `date_trunc('milliseconds', now())`;
const GROUP_COLUMNS = 'id, organization_id, name, category_id, rule_email_domains, send_course_enrollment_email, discount_percent, sign_up_field_rule, created_at, updated_at';
const NAME_TAKEN = 'group with this name already exists.';
const MAX_RULE_OPTIONS = 100;

/** option id -> its value and its signup field's domain name */
export type OptionInfo = Map<string, { value: string | null; domain_name: string | null }>;

export interface GroupView {
  group: Group;
  userCount: number;
  options: OptionInfo;
}

const invalidPk = (field: string, value: unknown) => fieldError(field, `Invalid pk "${String(value).slice(0, 100)}" - object does not exist.`);

/**
 * /v1 groups, their users, access code pools, email-domain rules and the group categories. Same
 * rows as /v2 (GroupsService). Every statement filters on the caller's organization.
 */
@Injectable()
export class GroupsV1Service {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  // ---------------------------------------------------------------- groups

  async list(p: Principal, page: V1PageRequest, name?: string): Promise<{ rows: Group[]; counts: Map<string, number>; options: OptionInfo; count: number }> {
    const params: unknown[] = [p.organizationId];
    let where = 'organization_id = $1';
    if (name !== undefined) {
      params.push(name);
      where += ` AND name = $2`; // exact, served by groups_org_name_uq
    }
    const [{ n }] = await this.ds.query(`SELECT count(*)::int AS n FROM groups WHERE ${where}`, params);
    const rows: Group[] = (
      await this.ds.query(`SELECT ${GROUP_COLUMNS} FROM groups WHERE ${where} ORDER BY created_at, id LIMIT ${page.pageSize} OFFSET ${page.offset}`, params)
    ).map(groupFromRow);
    return { rows, counts: await this.userCounts(p, rows.map((g) => g.id)), options: await this.optionInfo(p, rows), count: n };
  }

  /**
   * The signup-field options the rules of `groups` name, in one query: an option is an element
   * `{id, value}` of the `options` jsonb array of a signup field of the organization (the
   * domain-users module's table, read narrowly here); `domain_name` is its field's domain, null
   * for an organization-wide field.
   */
  private async optionInfo(p: Principal, groups: Group[]): Promise<OptionInfo> {
    const ids = new Set<string>();
    for (const g of groups) {
      const opts = (g.signUpFieldRule as { options?: { id?: unknown }[] } | null)?.options;
      if (Array.isArray(opts)) for (const o of opts) if (typeof o?.id === 'string') ids.add(o.id);
    }
    return this.lookupOptions(p, [...ids]);
  }

  private async lookupOptions(p: Principal, ids: string[]): Promise<OptionInfo> {
    if (!ids.length) return new Map();
    const rows: { id: string; value: string | null; domain_name: string | null }[] = await this.ds.query(
      `SELECT DISTINCT ON (o->>'id') o->>'id' AS id, o->>'value' AS value, d.name AS domain_name
         FROM signup_fields sf
         CROSS JOIN LATERAL jsonb_array_elements(CASE WHEN jsonb_typeof(sf.options) = 'array' THEN sf.options ELSE '[]'::jsonb END) o
         LEFT JOIN domains d ON d.id = sf.domain_id AND d.organization_id = sf.organization_id
        WHERE sf.organization_id = $1 AND o->>'id' = ANY($2::text[])
        ORDER BY o->>'id', sf.created_at, sf.id`,
      [p.organizationId, ids],
    );
    return new Map(rows.map((r) => [r.id, { value: r.value, domain_name: r.domain_name }]));
  }

  /** user_count of many groups in one query. */
  private async userCounts(p: Principal, ids: string[], m: EntityManager = this.ds.manager): Promise<Map<string, number>> {
    if (!ids.length) return new Map();
    const rows: { group_id: string; n: number }[] = await m.query(
      `SELECT group_id, count(*)::int AS n FROM group_memberships WHERE organization_id = $2 AND group_id = ANY($1::uuid[]) GROUP BY group_id`,
      [ids, p.organizationId],
    );
    return new Map(rows.map((r) => [r.group_id, r.n]));
  }

  private async findGroup(p: Principal, publicId: string, m: EntityManager = this.ds.manager, lock = false): Promise<Group> {
    const id = decodeId('group', publicId);
    const rows = id
      ? await m.query(`SELECT ${GROUP_COLUMNS} FROM groups WHERE id = $1 AND organization_id = $2${lock ? ' FOR UPDATE' : ''}`, [id, p.organizationId])
      : [];
    if (!rows.length) throw notFound('Not found.');
    return groupFromRow(rows[0]);
  }

  /** The group's uuid when it is a group of the caller's organization, else 404. */
  async requireGroupId(p: Principal, publicId: string): Promise<string> {
    return (await this.findGroup(p, publicId)).id;
  }

  async get(p: Principal, publicId: string): Promise<GroupView> {
    return this.view(p, await this.findGroup(p, publicId));
  }

  private async view(p: Principal, group: Group): Promise<GroupView> {
    return { group, userCount: (await this.userCounts(p, [group.id])).get(group.id) ?? 0, options: await this.optionInfo(p, [group]) };
  }

  /** `group_category_id` as sent: null clears, a category of the organization sets, anything else is 400. */
  private async resolveCategory(p: Principal, sent: string | null | undefined): Promise<string | null | undefined> {
    if (sent === undefined || sent === null) return sent;
    const id = decodeId('groupCategory', sent);
    const found = id ? await this.ds.query(`SELECT 1 FROM group_categories WHERE id = $1 AND organization_id = $2`, [id, p.organizationId]) : [];
    if (!found.length) throw invalidPk('group_category_id', sent);
    return id;
  }

  /** SignUpFieldRuleRequest: `{enforce?, require_match_all?, options: [{id}]}`; null clears it. */
  private async parseRule(p: Principal, sent: unknown): Promise<SignUpFieldRule | null | undefined> {
    if (sent === undefined || sent === null) return sent as undefined | null;
    const problems: { field: string; message: string }[] = [];
    const f = 'sign_up_field_rule';
    if (typeof sent !== 'object' || Array.isArray(sent)) throw fieldError(f, DRF.dict(sent));
    const r = sent as Record<string, unknown>;
    // The published property list names the flag `enforced`; the rule object and the examples use
    // `enforce`. `enforce` is the member; `enforced` is accepted as an alias when `enforce` is absent.
    const enforce = r.enforce !== undefined ? r.enforce : r.enforced;
    if (enforce !== undefined && typeof enforce !== 'boolean') problems.push({ field: `${f}.enforce`, message: 'Must be a valid boolean.' });
    if (r.require_match_all !== undefined && typeof r.require_match_all !== 'boolean') problems.push({ field: `${f}.require_match_all`, message: 'Must be a valid boolean.' });
    const options: { id: string }[] = [];
    if (r.options === undefined || r.options === null) problems.push({ field: `${f}.options`, message: 'This field is required.' });
    else if (!Array.isArray(r.options)) problems.push({ field: `${f}.options`, message: DRF.list(r.options) });
    else if (r.options.length > MAX_RULE_OPTIONS) problems.push({ field: `${f}.options`, message: `Ensure this field has no more than ${MAX_RULE_OPTIONS} elements.` });
    else {
      for (const o of r.options) {
        const id = o && typeof o === 'object' && !Array.isArray(o) ? (o as Record<string, unknown>).id : undefined;
        if (typeof id !== 'string' || !id.length || id.length > 64 || id.includes('\u0000')) {
          problems.push({ field: `${f}.options`, message: 'Each option must be an object with an id (a non-empty string of at most 64 characters).' });
          break;
        }
        if (!options.some((x) => x.id === id)) options.push({ id });
      }
    }
    if (problems.length) throw new ValidationFailed(problems, 400);
    // every option must be an option of a signup field of the organization
    const known = await this.lookupOptions(
      p,
      options.map((o) => o.id),
    );
    const unknown = options.find((o) => !known.has(o.id));
    if (unknown) throw fieldError(`${f}.options`, `Invalid pk "${unknown.id}" - object does not exist.`);
    return { enforce: enforce === true, require_match_all: r.require_match_all === true, options };
  }

  async create(p: Principal, dto: V1GroupCreateDto): Promise<GroupView> {
    const rule = await this.parseRule(p, dto.sign_up_field_rule);
    const category = await this.resolveCategory(p, dto.group_category_id);
    try {
      const [row] = await this.ds.query(
        `INSERT INTO groups (organization_id, name, category_id, rule_email_domains, discount_percent, sign_up_field_rule)
         VALUES ($1, $2, $3, $4::text[], $5, $6::jsonb) RETURNING ${GROUP_COLUMNS}`,
        [p.organizationId, dto.name, category ?? null, normalizeDomains(dto.rule_email_domains), dto.discount_percent ?? null, rule ? JSON.stringify(rule) : null],
      );
      const group = groupFromRow(row);
      return { group, userCount: 0, options: await this.optionInfo(p, [group]) };
    } catch (e) {
      if (isGroupNameConflict(e)) throw fieldError('name', NAME_TAKEN);
      throw e;
    }
  }

  /** PUT (name required by the DTO) and PATCH: only the members sent change. */
  async update(p: Principal, publicId: string, dto: V1GroupPatchDto): Promise<GroupView> {
    const id = (await this.findGroup(p, publicId)).id;
    const rule = await this.parseRule(p, dto.sign_up_field_rule);
    const category = await this.resolveCategory(p, dto.group_category_id);
    const sets: string[] = [];
    const params: unknown[] = [id, p.organizationId];
    const set = (column: string, value: unknown, cast = '') => {
      params.push(value);
      sets.push(`${column} = $${params.length}${cast}`);
    };
    if (dto.name !== undefined) set('name', dto.name);
    if (dto.discount_percent !== undefined) set('discount_percent', dto.discount_percent);
    if (category !== undefined) set('category_id', category, '::uuid');
    if (rule !== undefined) set('sign_up_field_rule', rule ? JSON.stringify(rule) : null, '::jsonb');
    sets.push(`updated_at = ${NOW}`);
    try {
      const rows = rowsOf(
        await this.ds.query(`UPDATE groups SET ${sets.join(', ')} WHERE id = $1 AND organization_id = $2 RETURNING ${GROUP_COLUMNS}`, params),
      );
      if (!rows.length) throw notFound('Not found.'); // deleted meanwhile
      return this.view(p, groupFromRow(rows[0]));
    } catch (e) {
      if (isGroupNameConflict(e)) throw fieldError('name', NAME_TAKEN);
      throw e;
    }
  }

  /** Hard delete; memberships, visibility overrides and pool links go with it (ON DELETE CASCADE). */
  async remove(p: Principal, publicId: string): Promise<void> {
    const id = decodeId('group', publicId);
    const rows = id ? rowsOf(await this.ds.query(`DELETE FROM groups WHERE id = $1 AND organization_id = $2 RETURNING id`, [id, p.organizationId])) : [];
    if (!rows.length) throw notFound('Not found.');
  }

  // ---------------------------------------------------------------- email-domain rules

  async emailDomains(p: Principal, publicId: string): Promise<string[]> {
    return (await this.findGroup(p, publicId)).ruleEmailDomains ?? [];
  }

  /** Adds first, then removes; both idempotent. The group row is locked for the read-modify-write. */
  async patchEmailDomains(p: Principal, publicId: string, dto: V1EmailDomainRulePatchDto): Promise<{ add: string[]; remove: string[]; email_domains: string[] }> {
    const decodedGroup = decodeId('group', publicId);
    if (!decodedGroup) throw notFound('Not found.');
    if ((dto.add === undefined || dto.add === null) && (dto.remove === undefined || dto.remove === null)) {
      await this.findGroup(p, publicId); // 404 before 400
      throw fieldError('non_field_errors', 'At least one of add or remove must be provided.');
    }
    const add = normalizeDomains(dto.add);
    const remove = normalizeDomains(dto.remove);
    return this.ds.transaction(async (m) => {
      const group = await this.findGroup(p, publicId, m, true);
      const drop = new Set(remove);
      const next = normalizeDomains([...(group.ruleEmailDomains ?? []), ...add]).filter((d) => !drop.has(d));
      if (next.length > MAX_RULE_DOMAINS) throw fieldError('add', `A group has at most ${MAX_RULE_DOMAINS} email domains.`);
      await m.query(`UPDATE groups SET rule_email_domains = $3::text[], updated_at = ${NOW} WHERE id = $1 AND organization_id = $2`, [group.id, p.organizationId, next]);
      return { add, remove, email_domains: next };
    });
  }

  // ---------------------------------------------------------------- group users

  async listUsers(p: Principal, groupPublicId: string, page: V1PageRequest): Promise<{ rows: GroupUserRow[]; count: number }> {
    const groupId = await this.requireGroupId(p, groupPublicId);
    const [{ n }] = await this.ds.query(`SELECT count(*)::int AS n FROM group_memberships WHERE group_id = $1 AND organization_id = $2`, [groupId, p.organizationId]);
    // users is the students module's table: a narrow join for the four member fields
    const rows: GroupUserRow[] = await this.ds.query(
      `SELECT gm.user_id, u.email, u.first_name, u.last_name, gm.created_at
         FROM group_memberships gm JOIN users u ON u.id = gm.user_id AND u.organization_id = gm.organization_id
        WHERE gm.group_id = $1 AND gm.organization_id = $2
        ORDER BY gm.created_at, gm.user_id LIMIT ${page.pageSize} OFFSET ${page.offset}`,
      [groupId, p.organizationId],
    );
    return { rows, count: n };
  }

  private async membership(p: Principal, groupId: string, userId: string, m: EntityManager = this.ds.manager): Promise<GroupUserRow | null> {
    const rows: GroupUserRow[] = await m.query(
      `SELECT gm.user_id, u.email, u.first_name, u.last_name, gm.created_at
         FROM group_memberships gm JOIN users u ON u.id = gm.user_id AND u.organization_id = gm.organization_id
        WHERE gm.group_id = $1 AND gm.user_id = $2 AND gm.organization_id = $3`,
      [groupId, userId, p.organizationId],
    );
    return rows[0] ?? null;
  }

  /** `{user: {id}}`: a user of the organization (else 400). Idempotent: an existing membership is answered as is. */
  async addUser(p: Principal, groupPublicId: string, body: unknown): Promise<{ row: GroupUserRow; created: boolean }> {
    const groupId = await this.requireGroupId(p, groupPublicId);
    const sent = linkedId(body, 'user');
    const userId = decodeId('student', sent);
    const users = userId ? await this.ds.query(`SELECT id FROM users WHERE id = $1 AND organization_id = $2`, [userId, p.organizationId]) : [];
    if (!users.length) throw invalidPk('user', sent);
    const inserted = await this.ds.query(
      `INSERT INTO group_memberships (group_id, user_id, organization_id) SELECT $1, $2, $3
        WHERE EXISTS (SELECT 1 FROM groups WHERE id = $1 AND organization_id = $3)
       ON CONFLICT (group_id, user_id) DO NOTHING RETURNING user_id`,
      [groupId, userId, p.organizationId],
    );
    const row = await this.membership(p, groupId, userId!);
    if (!row) throw notFound('Not found.'); // the group was deleted meanwhile
    return { row, created: inserted.length > 0 };
  }

  async readUser(p: Principal, groupPublicId: string, userPublicId: string): Promise<GroupUserRow> {
    const groupId = await this.requireGroupId(p, groupPublicId);
    const userId = decodeId('student', userPublicId);
    const row = userId ? await this.membership(p, groupId, userId) : null;
    if (!row) throw notFound('Not found.');
    return row;
  }

  async removeUser(p: Principal, groupPublicId: string, userPublicId: string): Promise<void> {
    const groupId = await this.requireGroupId(p, groupPublicId);
    const userId = decodeId('student', userPublicId);
    const rows = userId
      ? rowsOf(await this.ds.query(`DELETE FROM group_memberships WHERE group_id = $1 AND user_id = $2 AND organization_id = $3 RETURNING user_id`, [groupId, userId, p.organizationId]))
      : [];
    if (!rows.length) throw notFound('Not found.');
  }

  /** /v1/users/{user_id}/groups: the groups of a user of the organization (404 for any other id). */
  async listUserGroups(p: Principal, userPublicId: string, page: V1PageRequest): Promise<{ rows: UserGroupRow[]; count: number }> {
    const userId = decodeId('student', userPublicId);
    const users = userId ? await this.ds.query(`SELECT id FROM users WHERE id = $1 AND organization_id = $2`, [userId, p.organizationId]) : [];
    if (!users.length) throw notFound('Not found.');
    const [{ n }] = await this.ds.query(`SELECT count(*)::int AS n FROM group_memberships WHERE user_id = $1 AND organization_id = $2`, [userId, p.organizationId]);
    const rows: UserGroupRow[] = await this.ds.query(
      `SELECT gm.group_id, g.name, gm.created_at
         FROM group_memberships gm JOIN groups g ON g.id = gm.group_id AND g.organization_id = gm.organization_id
        WHERE gm.user_id = $1 AND gm.organization_id = $2
        ORDER BY gm.created_at, gm.group_id LIMIT ${page.pageSize} OFFSET ${page.offset}`,
      [userId, p.organizationId],
    );
    return { rows, count: n };
  }

  // ---------------------------------------------------------------- group access code pools
  // access_code_pools is the access-codes module's table; its service resolves pools per domain
  // only, so pools are read here with narrow organization-filtered queries (id, name).

  async listPools(p: Principal, groupPublicId: string, page: V1PageRequest): Promise<{ rows: GroupPoolRow[]; count: number }> {
    const groupId = await this.requireGroupId(p, groupPublicId);
    const [{ n }] = await this.ds.query(`SELECT count(*)::int AS n FROM group_access_code_pools WHERE group_id = $1 AND organization_id = $2`, [groupId, p.organizationId]);
    const rows: GroupPoolRow[] = await this.ds.query(
      `SELECT l.access_code_pool_id, acp.name, l.created_at
         FROM group_access_code_pools l JOIN access_code_pools acp ON acp.id = l.access_code_pool_id AND acp.organization_id = l.organization_id
        WHERE l.group_id = $1 AND l.organization_id = $2
        ORDER BY l.created_at, l.access_code_pool_id LIMIT ${page.pageSize} OFFSET ${page.offset}`,
      [groupId, p.organizationId],
    );
    return { rows, count: n };
  }

  private async poolLink(p: Principal, groupId: string, poolId: string): Promise<GroupPoolRow | null> {
    const rows: GroupPoolRow[] = await this.ds.query(
      `SELECT l.access_code_pool_id, acp.name, l.created_at
         FROM group_access_code_pools l JOIN access_code_pools acp ON acp.id = l.access_code_pool_id AND acp.organization_id = l.organization_id
        WHERE l.group_id = $1 AND l.access_code_pool_id = $2 AND l.organization_id = $3`,
      [groupId, poolId, p.organizationId],
    );
    return rows[0] ?? null;
  }

  /** `{access_code_pool: {id}}`: a pool of the organization (else 400). Idempotent. */
  async addPool(p: Principal, groupPublicId: string, body: unknown): Promise<{ row: GroupPoolRow; created: boolean }> {
    const groupId = await this.requireGroupId(p, groupPublicId);
    const sent = linkedId(body, 'access_code_pool');
    const poolId = decodeId('accessCodePool', sent);
    const pools = poolId ? await this.ds.query(`SELECT id FROM access_code_pools WHERE id = $1 AND organization_id = $2`, [poolId, p.organizationId]) : [];
    if (!pools.length) throw invalidPk('access_code_pool', sent);
    const inserted = await this.ds.query(
      `INSERT INTO group_access_code_pools (group_id, access_code_pool_id, organization_id) SELECT $1, $2, $3
        WHERE EXISTS (SELECT 1 FROM groups WHERE id = $1 AND organization_id = $3)
       ON CONFLICT (group_id, access_code_pool_id) DO NOTHING RETURNING group_id`,
      [groupId, poolId, p.organizationId],
    );
    const row = await this.poolLink(p, groupId, poolId!);
    if (!row) throw notFound('Not found.');
    return { row, created: inserted.length > 0 };
  }

  async readPool(p: Principal, groupPublicId: string, poolPublicId: string): Promise<GroupPoolRow> {
    const groupId = await this.requireGroupId(p, groupPublicId);
    const poolId = decodeId('accessCodePool', poolPublicId);
    const row = poolId ? await this.poolLink(p, groupId, poolId) : null;
    if (!row) throw notFound('Not found.');
    return row;
  }

  async removePool(p: Principal, groupPublicId: string, poolPublicId: string): Promise<void> {
    const groupId = await this.requireGroupId(p, groupPublicId);
    const poolId = decodeId('accessCodePool', poolPublicId);
    const rows = poolId
      ? rowsOf(
          await this.ds.query(`DELETE FROM group_access_code_pools WHERE group_id = $1 AND access_code_pool_id = $2 AND organization_id = $3 RETURNING group_id`, [
            groupId,
            poolId,
            p.organizationId,
          ]),
        )
      : [];
    if (!rows.length) throw notFound('Not found.');
  }

  // ---------------------------------------------------------------- group categories

  async listCategories(p: Principal, page: V1PageRequest): Promise<{ rows: { id: string; name: string }[]; count: number }> {
    const [{ n }] = await this.ds.query(`SELECT count(*)::int AS n FROM group_categories WHERE organization_id = $1`, [p.organizationId]);
    const rows = await this.ds.query(
      `SELECT id, name FROM group_categories WHERE organization_id = $1 ORDER BY created_at, id LIMIT ${page.pageSize} OFFSET ${page.offset}`,
      [p.organizationId],
    );
    return { rows, count: n };
  }

  async getCategory(p: Principal, publicId: string): Promise<{ id: string; name: string }> {
    const id = decodeId('groupCategory', publicId);
    const rows = id ? await this.ds.query(`SELECT id, name FROM group_categories WHERE id = $1 AND organization_id = $2`, [id, p.organizationId]) : [];
    if (!rows.length) throw notFound('Not found.');
    return rows[0];
  }
}

/**
 * The id of a linked object sent as `{<member>: {id}}`. A missing member is "This field is
 * required."; any other shape is one 400 on the member.
 */
function linkedId(body: unknown, member: string): string {
  const b = (body ?? {}) as Record<string, unknown>;
  const v = b[member];
  if (v === undefined || v === null) throw new ValidationFailed([{ field: member, message: v === null ? 'This field may not be null.' : 'This field is required.' }], 400);
  if (typeof v !== 'object' || Array.isArray(v)) throw fieldError(member, DRF.dict(v));
  const id = (v as Record<string, unknown>).id;
  if (id === undefined || id === null) throw fieldError(`${member}.id`, 'This field is required.');
  if (typeof id !== 'string' || !id.length) throw fieldError(`${member}.id`, 'Not a valid string.');
  return id;
}
