import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import type { Principal } from '../../core/auth/principal';
import type { ItemOutcome, ValidItem } from '../../core/batch/batch';
import { notFound } from '../../core/http/api-error';
import { decodeId, encodeId, newUuid } from '../../core/ids/ids';
import type { PageRequest } from '../../core/pagination/cursor-page';
import { GROUP_UPDATABLE, GroupCreateItem, GroupDeleteItem, GroupUpdateItem } from './dto/group.dto';
import { GroupCategory } from './group-category.entity';
import { Group, GROUP_COLUMNS } from './group.entity';
import type { GroupRow } from './groups.store';
import type { GroupView } from './groups.shape';
import { poolRead, poolRowOr404, TEXT_TIMESTAMPS } from '../../core/database/pool-reads';
import { scoped } from '../../core/database/scoped';
import { isUniqueViolation, rowsOf } from '../../core/database/sql';
import { entityFromRow } from '../../core/database/entity-rows';
import { itemNotFound, itemsWithIds } from '../../core/routes/v2-item-ids';

export interface GroupListFilters {
  name?: string;
  /** public category id as sent (already checked to be at most 64 characters) */
  categoryId?: string;
  /** filter[updated_since]: changed at or after, ordered by last change (updated_at, id) on groups_org_updated_idx */
  updatedSince?: Date;
}

/** The outcome of a batch item whose id is no group of the organization. */
const GROUP_NOT_FOUND = itemNotFound('Group');
const NOW = `date_trunc('milliseconds', now())`;

/** A group as the /v2 reads answer it: the columns presentGroup and the page read, aliased to their members (no entity in between). */
export type GroupReadRow = GroupView;
const READ_COLUMNS = `g.id, g.name, g.category_id AS "categoryId", g.rule_email_domains AS "ruleEmailDomains", g.send_course_enrollment_email AS "sendCourseEnrollmentEmail", g.created_at AS "createdAt", g.updated_at AS "updatedAt"`;

const GET = { name: 'groups_v2_get', sql: `SELECT ${READ_COLUMNS} FROM groups g WHERE g.id = $1 AND g.organization_id = $org`, types: TEXT_TIMESTAMPS };

/** Escape LIKE wildcards so a filter value matches literally. */
export function escapeLike(s: string): string {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** Lower-case, de-duplicated rule domains in the order sent. */
export function normalizeDomains(domains: string[] | null | undefined): string[] {
  return [...new Set((domains ?? []).map((d) => d.trim().toLowerCase()))];
}

/** The unique index on (organization_id, name): group names are unique within an organization (case-sensitive). */
export const GROUP_NAME_UNIQUE = 'groups_org_name_uq';

/** A unique violation of groups_org_name_uq (raised by pg, wrapped or not by TypeORM). */
export function isGroupNameConflict(e: unknown): boolean {
  return isUniqueViolation(e, GROUP_NAME_UNIQUE);
}

const NAME_TAKEN: ItemOutcome<GroupView> = {
  ok: false,
  code: 'validation_error',
  detail: 'name: a group with this name already exists in the organization.',
  pointer: '/attributes/name',
};

/**
 * Groups of an organization. Every query filters on the caller's organization; batch writes are
 * set-wise (one lookup of the referenced categories, then one multi-row statement).
 */
@Injectable()
export class GroupsService {
  constructor(
    @InjectRepository(Group) private readonly groups: Repository<Group>,
    @InjectRepository(GroupCategory) private readonly categories: Repository<GroupCategory>,
  ) {}

  /**
   * A keyset page, oldest first (created_at, id), on the (organization_id, created_at, id) index:
   * one plain statement, the rows presented as pg answers them (READ_COLUMNS).
   */
  async list(p: Principal, page: PageRequest, filters: GroupListFilters): Promise<GroupReadRow[]> {
    const params: unknown[] = [];
    let where = 'g.organization_id = $org';
    if (filters.categoryId !== undefined) {
      const category = decodeId('groupCategory', filters.categoryId);
      if (!category) return []; // undecodable: an empty page, never an error
      where += ` AND g.category_id = $${params.push(category)}`;
    }
    if (filters.name) {
      // served by the pg_trgm GIN index on lower(name)
      where += ` AND lower(g.name) LIKE $${params.push(`%${escapeLike(filters.name.toLowerCase())}%`)} ESCAPE '\\'`;
    }
    // the unfiltered pages are two fixed texts: named statements
    const name = params.length === 0 ? (page.after ? 'groups_v2_list_after' : 'groups_v2_list') : undefined;
    // filter[updated_since] orders by last change (docs/decisions/data-out.md), on (organization_id, updated_at, id)
    const at = filters.updatedSince ? 'g.updated_at' : 'g.created_at';
    if (filters.updatedSince) where += ` AND g.updated_at >= $${params.push(filters.updatedSince)}`;
    if (page.after) where += ` AND (${at}, g.id) > ($${params.push(page.after.t)}::timestamptz, $${params.push(page.after.id)}::uuid)`;
    const sql = `SELECT ${READ_COLUMNS} FROM groups g WHERE ${where} ORDER BY ${at} ASC, g.id ASC LIMIT $${params.push(page.size + 1)}`;
    return poolRead(this.groups.manager.connection, p.organizationId, { sql, name, types: TEXT_TIMESTAMPS }, params);
  }

  async get(p: Principal, publicId: string): Promise<GroupReadRow> {
    return poolRowOr404(this.groups.manager.connection, p.organizationId, 'group', publicId, GET, 'Group not found.');
  }

  /** The group's uuid when it is a group of the caller's organization, else 404. */
  async requireGroupId(p: Principal, publicId: string): Promise<string> {
    const id = decodeId('group', publicId);
    const found = id ? await this.groups.exists({ where: { id, organizationId: p.organizationId } }) : false;
    if (!id || !found) throw notFound('Group not found.');
    return id;
  }

  /** The subset of category uuids that are categories of the organization. */
  private async existingCategories(organizationId: string, ids: string[]): Promise<Set<string>> {
    const unique = [...new Set(ids)];
    if (!unique.length) return new Set();
    const rows: { id: string }[] = await scoped(this.categories, organizationId).query(`SELECT id FROM group_categories WHERE organization_id = $org AND id = ANY($1::uuid[])`, [unique]);
    return new Set(rows.map((r) => r.id));
  }

  /** Resolve `category_id` of each item that sends one; failures go to `out`. */
  private async resolveCategories<T extends { attributes: { category_id?: string | null } }>(
    p: Principal,
    items: ValidItem<T>[],
    out: Map<number, ItemOutcome<GroupView>>,
  ): Promise<Map<number, string | null>> {
    const decoded = new Map<number, string | null>();
    for (const v of items) {
      const sent = v.item.attributes.category_id;
      if (sent === undefined || sent === null) continue;
      decoded.set(v.index, decodeId('groupCategory', sent));
    }
    const known = await this.existingCategories(
      p.organizationId,
      [...decoded.values()].filter((x): x is string => !!x),
    );
    const resolved = new Map<number, string | null>();
    for (const v of items) {
      if (!decoded.has(v.index)) continue;
      const uuid = decoded.get(v.index)!;
      if (!uuid || !known.has(uuid)) {
        out.set(v.index, { ok: false, code: 'not_found', detail: 'Group category not found.', pointer: '/attributes/category_id' });
      } else {
        resolved.set(v.index, uuid);
      }
    }
    return resolved;
  }

  /** Batch create: one category lookup and one multi-row INSERT. */
  async create(p: Principal, items: ValidItem<GroupCreateItem>[]): Promise<Map<number, ItemOutcome<GroupView>>> {
    const out = new Map<number, ItemOutcome<GroupView>>();
    const categories = await this.resolveCategories(p, items, out);
    // The rows of one INSERT share created_at; ids are handed out in ascending order so that the
    // list (keyset on created_at, id) shows them in request order. They stay random.
    const pendingItems = items.filter((v) => !out.has(v.index));
    const ids = pendingItems.map(() => newUuid()).sort();
    const rows = pendingItems.map((v, i) => ({ v, id: ids[i] }));
    if (!rows.length) return out;
    const params: unknown[] = [];
    const values = rows.map(({ v, id }) => {
      const a = v.item.attributes;
      params.push(id, a.name, categories.get(v.index) ?? null, normalizeDomains(a.rule_email_domains), a.send_course_enrollment_email ?? null);
      const n = params.length;
      return `($${n - 4}::uuid, $org::uuid, $${n - 3}::text, $${n - 2}::uuid, $${n - 1}::text[], $${n}::boolean)`;
    });
    const inserted = rowsOf<GroupRow>(
      await scoped(this.groups, p.organizationId).query<unknown>(
        `INSERT INTO groups (id, organization_id, name, category_id, rule_email_domains, send_course_enrollment_email)
         VALUES ${values.join(', ')}
         ON CONFLICT (organization_id, name) DO NOTHING
         RETURNING ${GROUP_COLUMNS}`,
        params,
      ),
    );
    // Names are unique within the organization (groups_org_name_uq, case-sensitive): an item whose
    // row was not inserted collided with an existing group's name.
    const byId = new Map(inserted.map((r) => [r.id, entityFromRow(this.groups, r)]));
    for (const { v, id } of rows) {
      const g = byId.get(id);
      out.set(v.index, g ? { ok: true, id: encodeId('group', id), result: g } : NAME_TAKEN);
    }
    return out;
  }

  /**
   * Batch update: one category lookup and one `UPDATE ... FROM (VALUES ...)`. A member that is
   * omitted leaves the column unchanged; `category_id: null` clears the category and
   * `rule_email_domains: null` clears the list.
   */
  async update(p: Principal, items: ValidItem<GroupUpdateItem>[]): Promise<Map<number, ItemOutcome<GroupView>>> {
    const out = new Map<number, ItemOutcome<GroupView>>();
    const pending: { v: ValidItem<GroupUpdateItem>; id: string; sent: Set<string> }[] = [];
    for (const v of items) {
      const rawAttrs = (v.raw.attributes ?? {}) as Record<string, unknown>;
      const sent = new Set<string>(GROUP_UPDATABLE.filter((k) => Object.prototype.hasOwnProperty.call(rawAttrs, k) && rawAttrs[k] !== undefined));
      if (!sent.size) {
        out.set(v.index, {
          ok: false,
          code: 'validation_error',
          detail: `attributes: at least one of ${GROUP_UPDATABLE.join(', ')} is required.`,
          pointer: '/attributes',
        });
        continue;
      }
      const id = decodeId('group', v.item.id);
      if (!id) {
        out.set(v.index, GROUP_NOT_FOUND);
        continue;
      }
      pending.push({ v, id, sent });
    }
    const categories = await this.resolveCategories(
      p,
      pending.map((x) => x.v),
      out,
    );
    await this.checkRenames(
      p,
      pending.filter((x) => !out.has(x.v.index) && x.sent.has('name')),
      out,
    );
    const rows = pending.filter((x) => !out.has(x.v.index));
    if (!rows.length) return out;
    try {
      await this.runUpdate(p, rows, categories, out);
    } catch (e) {
      if (!isGroupNameConflict(e)) throw e;
      // A concurrent write took a name after the check: the renames fail, the other items are retried.
      const rest = rows.filter((x) => !x.sent.has('name'));
      for (const x of rows) if (x.sent.has('name')) out.set(x.v.index, NAME_TAKEN);
      if (rest.length) await this.runUpdate(p, rest, categories, out);
    }
    return out;
  }

  /**
   * Unique names: a rename to a name another group of the organization holds now, or that an
   * earlier item of the batch claims, is `validation_error` at /attributes/name (one SELECT). A
   * swap of two names inside one batch is therefore refused; it takes two requests.
   */
  private async checkRenames(p: Principal, renames: { v: ValidItem<GroupUpdateItem>; id: string }[], out: Map<number, ItemOutcome<GroupView>>): Promise<void> {
    if (!renames.length) return;
    const names = [...new Set(renames.map((x) => x.v.item.attributes.name as string))];
    const holders: { id: string; name: string }[] = await scoped(this.groups, p.organizationId).query(`SELECT id, name FROM groups WHERE organization_id = $org AND name = ANY($1::text[])`, [names]);
    const held = new Map<string, string[]>();
    for (const h of holders) held.set(h.name, [...(held.get(h.name) ?? []), h.id]);
    const claimed = new Set<string>();
    for (const x of renames) {
      const name = x.v.item.attributes.name as string;
      if ((held.get(name) ?? []).some((id) => id !== x.id) || claimed.has(name)) out.set(x.v.index, NAME_TAKEN);
      else claimed.add(name);
    }
  }

  private async runUpdate(
    p: Principal,
    rows: { v: ValidItem<GroupUpdateItem>; id: string; sent: Set<string> }[],
    categories: Map<number, string | null>,
    out: Map<number, ItemOutcome<GroupView>>,
  ): Promise<void> {
    const params: unknown[] = [];
    const values = rows.map(({ v, id, sent }) => {
      const a = v.item.attributes;
      params.push(
        id,
        sent.has('name'),
        sent.has('name') ? a.name : null,
        sent.has('rule_email_domains'),
        sent.has('rule_email_domains') ? normalizeDomains(a.rule_email_domains) : null,
        sent.has('send_course_enrollment_email'),
        sent.has('send_course_enrollment_email') ? (a.send_course_enrollment_email ?? null) : null,
        sent.has('category_id'),
        sent.has('category_id') ? (categories.get(v.index) ?? null) : null,
      );
      const n = params.length - 9;
      return `($${n + 1}::uuid, $${n + 2}::boolean, $${n + 3}::text, $${n + 4}::boolean, $${n + 5}::text[], $${n + 6}::boolean, $${n + 7}::boolean, $${n + 8}::boolean, $${n + 9}::uuid)`;
    });
    const updated = rowsOf<GroupRow>(
      await scoped(this.groups, p.organizationId).query<unknown>(
        `UPDATE groups g SET
           name = CASE WHEN v.set_name THEN v.name ELSE g.name END,
           rule_email_domains = CASE WHEN v.set_domains THEN v.domains ELSE g.rule_email_domains END,
           send_course_enrollment_email = CASE WHEN v.set_send THEN v.send ELSE g.send_course_enrollment_email END,
           category_id = CASE WHEN v.set_category THEN v.category ELSE g.category_id END,
           updated_at = ${NOW}
         FROM (VALUES ${values.join(', ')}) AS v(id, set_name, name, set_domains, domains, set_send, send, set_category, category)
         WHERE g.id = v.id AND g.organization_id = $org
         RETURNING ${GROUP_COLUMNS.split(', ')
           .map((c) => `g.${c}`)
           .join(', ')}`,
        params,
      ),
    );
    const byId = new Map(updated.map((r) => [r.id, entityFromRow(this.groups, r)]));
    for (const { v, id } of rows) {
      const g = byId.get(id);
      out.set(v.index, g ? { ok: true, id: encodeId('group', id), result: g } : GROUP_NOT_FOUND);
    }
  }

  /** Batch hard delete: one `DELETE ... RETURNING id`; memberships and overrides cascade in the database. */
  async remove(p: Principal, items: ValidItem<GroupDeleteItem>[]): Promise<Map<number, ItemOutcome<never>>> {
    const out = new Map<number, ItemOutcome<never>>();
    const rows = itemsWithIds(items, 'group', GROUP_NOT_FOUND, out);
    if (!rows.length) return out;
    const deleted = rowsOf<{ id: string }>(
      await scoped(this.groups, p.organizationId).query<unknown>(`DELETE FROM groups WHERE organization_id = $org AND id = ANY($1::uuid[]) RETURNING id`, [rows.map((r) => r.id)]),
    );
    const gone = new Set(deleted.map((r) => r.id));
    for (const { v, id } of rows) {
      out.set(v.index, gone.has(id) ? { ok: true, id: v.item.id, deleted: true } : GROUP_NOT_FOUND);
    }
    return out;
  }
}
