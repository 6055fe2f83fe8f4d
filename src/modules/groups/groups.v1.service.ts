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
import { Group, GROUP_COLUMNS } from './group.entity';
import type { GroupRow } from './groups.store';
import { isGroupNameConflict, normalizeDomains } from './groups.service';
import type { SignUpFieldRule } from './groups.v1.shape';
import { rowsOf } from '../../core/database/sql';
import { entityFromRow } from '../../core/database/entity-rows';
import { scoped } from '../../core/database/scoped';

const NOW = `date_trunc('milliseconds', now())`;
const NAME_TAKEN = 'group with this name already exists.';
const MAX_RULE_OPTIONS = 100;

/** option id -> its value and its signup field's domain name */
export type OptionInfo = Map<string, { value: string | null; domain_name: string | null }>;

export interface GroupView {
  group: Group;
  userCount: number;
  options: OptionInfo;
}

export const invalidPk = (field: string, value: unknown) => fieldError(field, `Invalid pk "${String(value).slice(0, 100)}" - object does not exist.`);

/**
 * /v1 groups, their email-domain rules and the group categories (group users and access code
 * pools: GroupLinksV1Service). Same rows as /v2 (GroupsService). Every statement filters on the caller's organization.
 */
@Injectable()
export class GroupsV1Service {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /** A `groups` row of GROUP_COLUMNS as the entity. */
  private group(row: GroupRow): Group {
    return entityFromRow(this.ds.getRepository(Group), row);
  }

  // ---------------------------------------------------------------- groups

  async list(p: Principal, page: V1PageRequest, name?: string, updatedSince?: Date): Promise<{ rows: Group[]; counts: Map<string, number>; options: OptionInfo; count: number }> {
    const db = scoped(this.ds, p.organizationId);
    const params: unknown[] = [];
    let where = 'organization_id = $org';
    if (name !== undefined) {
      params.push(name);
      where += ` AND name = $1`; // exact, served by groups_org_name_uq
    }
    // updated_since orders by last change (docs/decisions/data-out.md), on groups_org_updated_idx
    if (updatedSince) where += ` AND updated_at >= $${params.push(updatedSince)}`;
    const order = updatedSince ? 'updated_at, id' : 'created_at, id';
    const [{ n }] = await db.query<{ n: number }[]>(`SELECT count(*)::int AS n FROM groups WHERE ${where}`, params);
    const rows: Group[] = (await db.query<GroupRow[]>(`SELECT ${GROUP_COLUMNS} FROM groups WHERE ${where} ORDER BY ${order} LIMIT ${page.pageSize} OFFSET ${page.offset}`, params)).map((r) =>
      this.group(r),
    );
    return {
      rows,
      counts: await this.userCounts(
        p,
        rows.map((g) => g.id),
      ),
      options: await this.optionInfo(p, rows),
      count: n,
    };
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
    const rows: { id: string; value: string | null; domain_name: string | null }[] = await scoped(this.ds, p.organizationId).query(
      `SELECT DISTINCT ON (o->>'id') o->>'id' AS id, o->>'value' AS value, d.name AS domain_name
         FROM signup_fields sf
         CROSS JOIN LATERAL jsonb_array_elements(CASE WHEN jsonb_typeof(sf.options) = 'array' THEN sf.options ELSE '[]'::jsonb END) o
         LEFT JOIN domains d ON d.id = sf.domain_id AND d.organization_id = sf.organization_id
        WHERE sf.organization_id = $org AND o->>'id' = ANY($1::text[])
        ORDER BY o->>'id', sf.created_at, sf.id`,
      [ids],
    );
    return new Map(rows.map((r) => [r.id, { value: r.value, domain_name: r.domain_name }]));
  }

  /** user_count of many groups in one query. */
  private async userCounts(p: Principal, ids: string[], m: EntityManager = this.ds.manager): Promise<Map<string, number>> {
    if (!ids.length) return new Map();
    const rows: { group_id: string; n: number }[] = await scoped(m, p.organizationId).query(
      `SELECT group_id, count(*)::int AS n FROM group_memberships WHERE organization_id = $org AND group_id = ANY($1::uuid[]) GROUP BY group_id`,
      [ids],
    );
    return new Map(rows.map((r) => [r.group_id, r.n]));
  }

  private async findGroup(p: Principal, publicId: string, m: EntityManager = this.ds.manager, lock = false): Promise<Group> {
    const id = decodeId('group', publicId);
    const rows = id ? await scoped(m, p.organizationId).query<GroupRow[]>(`SELECT ${GROUP_COLUMNS} FROM groups WHERE id = $1 AND organization_id = $org${lock ? ' FOR UPDATE' : ''}`, [id]) : [];
    if (!rows.length) throw notFound('Not found.');
    return this.group(rows[0]);
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
    const found = id ? await scoped(this.ds, p.organizationId).query<unknown[]>(`SELECT 1 FROM group_categories WHERE id = $1 AND organization_id = $org`, [id]) : [];
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
      const [row] = await scoped(this.ds, p.organizationId).query<GroupRow[]>(
        `INSERT INTO groups (organization_id, name, category_id, rule_email_domains, discount_percent, sign_up_field_rule)
         VALUES ($org, $1, $2, $3::text[], $4, $5::jsonb) RETURNING ${GROUP_COLUMNS}`,
        [dto.name, category ?? null, normalizeDomains(dto.rule_email_domains), dto.discount_percent ?? null, rule ? JSON.stringify(rule) : null],
      );
      const group = this.group(row);
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
    const params: unknown[] = [id];
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
      const rows = rowsOf<GroupRow>(
        await scoped(this.ds, p.organizationId).query<unknown>(`UPDATE groups SET ${sets.join(', ')} WHERE id = $1 AND organization_id = $org RETURNING ${GROUP_COLUMNS}`, params),
      );
      if (!rows.length) throw notFound('Not found.'); // deleted meanwhile
      return this.view(p, this.group(rows[0]));
    } catch (e) {
      if (isGroupNameConflict(e)) throw fieldError('name', NAME_TAKEN);
      throw e;
    }
  }

  /** Hard delete; memberships, visibility overrides and pool links go with it (ON DELETE CASCADE). */
  async remove(p: Principal, publicId: string): Promise<void> {
    const id = decodeId('group', publicId);
    const rows = id ? rowsOf<{ id: string }>(await scoped(this.ds, p.organizationId).query<unknown>(`DELETE FROM groups WHERE id = $1 AND organization_id = $org RETURNING id`, [id])) : [];
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
      await scoped(m, p.organizationId).query(`UPDATE groups SET rule_email_domains = $2::text[], updated_at = ${NOW} WHERE id = $1 AND organization_id = $org`, [group.id, next]);
      return { add, remove, email_domains: next };
    });
  }

  // ---------------------------------------------------------------- group categories

  async listCategories(p: Principal, page: V1PageRequest, f: { updatedSince?: Date } = {}): Promise<{ rows: { id: string; name: string }[]; count: number }> {
    const db = scoped(this.ds, p.organizationId);
    // updated_since orders by last change (docs/decisions/data-out.md), on group_categories_org_updated_idx
    const params: unknown[] = f.updatedSince ? [f.updatedSince] : [];
    const where = f.updatedSince ? 'organization_id = $org AND updated_at >= $1' : 'organization_id = $org';
    const order = f.updatedSince ? 'updated_at, id' : 'created_at, id';
    const [{ n }] = await db.query<{ n: number }[]>(`SELECT count(*)::int AS n FROM group_categories WHERE ${where}`, params);
    const rows = await db.query<{ id: string; name: string }[]>(`SELECT id, name FROM group_categories WHERE ${where} ORDER BY ${order} LIMIT ${page.pageSize} OFFSET ${page.offset}`, params);
    return { rows, count: n };
  }

  async getCategory(p: Principal, publicId: string): Promise<{ id: string; name: string }> {
    const id = decodeId('groupCategory', publicId);
    const rows = id ? await scoped(this.ds, p.organizationId).query<{ id: string; name: string }[]>(`SELECT id, name FROM group_categories WHERE id = $1 AND organization_id = $org`, [id]) : [];
    if (!rows.length) throw notFound('Not found.');
    return rows[0];
  }
}
