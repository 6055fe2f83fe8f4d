import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import type { Principal } from '../../core/auth/principal';
import type { ItemOutcome, ValidItem } from '../../core/batch/batch';
import { decodeId, encodeId } from '../../core/ids/ids';
import { applyKeyset, PageRequest } from '../../core/pagination/cursor-page';
import { PublishedCoursesService } from '../published-courses/published-courses.service';
import { VisibilityOverrideItem } from './dto/visibility-override.dto';
import { VisibilityOverride } from './visibility-override.entity';
import { rowsOf } from '../../core/database/sql';
import { entityFromRow } from '../../core/database/entity-rows';
import { scoped } from '../../core/database/scoped';
import { VISIBILITY_OVERRIDES_COLUMNS, VisibilityOverrideRow } from './visibility-overrides.store';

export interface OverrideListFilters {
  /** public published-course id as sent (at most 64 characters) */
  publishedCourseId?: string;
  isVisible?: boolean;
  /** filter[updated_since]: changed at or after, ordered by last change on (group_id, updated_at, id) */
  updatedSince?: Date;
}

const COLUMNS = VISIBILITY_OVERRIDES_COLUMNS;
const notFoundCourse = { ok: false as const, code: 'not_found' as const, detail: 'Published course not found.', pointer: '/attributes/published_course_id' };

/**
 * Visibility overrides of one group. Callers first resolve the group with
 * GroupsService.requireGroupId (404 when it is not in the caller's organization); every query here
 * filters on both the organization and the group.
 */
@Injectable()
export class VisibilityOverridesService {
  constructor(
    @InjectRepository(VisibilityOverride) private readonly overrides: Repository<VisibilityOverride>,
    private readonly publishedCourses: PublishedCoursesService,
  ) {}

  async list(p: Principal, groupId: string, page: PageRequest, filters: OverrideListFilters): Promise<VisibilityOverride[]> {
    const qb = this.overrides.createQueryBuilder('o').where('o.group_id = :groupId', { groupId }).andWhere('o.organization_id = :org', { org: p.organizationId });
    if (filters.publishedCourseId !== undefined) {
      const pc = decodeId('publishedCourse', filters.publishedCourseId);
      if (!pc) return []; // undecodable: an empty page, never an error
      qb.andWhere('o.published_course_id = :pc', { pc });
    }
    if (filters.isVisible !== undefined) qb.andWhere('o.is_visible = :visible', { visible: filters.isVisible });
    if (filters.updatedSince) {
      // ordered by last change (docs/decisions/data-out.md), on visibility_overrides_group_updated_idx (group_id, updated_at, id)
      qb.andWhere('o.updated_at >= :since', { since: filters.updatedSince });
      if (page.after) qb.andWhere('(o.updated_at, o.id) > (:__t, :__id)', { __t: page.after.t, __id: page.after.id });
      return qb
        .orderBy('o.updated_at', 'ASC')
        .addOrderBy('o.id', 'ASC')
        .limit(page.size + 1)
        .getMany();
    }
    // served by visibility_overrides_group_created_idx (group_id, created_at, id)
    return applyKeyset(qb, 'o', page, 'ASC').getMany();
  }

  /** Decode each item's published_course_id; undecodable ones fail as not_found. */
  private decode(items: ValidItem<VisibilityOverrideItem>[], out: Map<number, ItemOutcome<any>>) {
    const rows: { v: ValidItem<VisibilityOverrideItem>; pc: string; visible: boolean }[] = [];
    for (const v of items) {
      const pc = decodeId('publishedCourse', v.item.attributes.published_course_id);
      if (!pc) out.set(v.index, notFoundCourse);
      else rows.push({ v, pc, visible: v.item.attributes.is_visible });
    }
    return rows;
  }

  /**
   * Idempotent add: one lookup of the published courses (through PublishedCoursesService), one
   * `INSERT ... ON CONFLICT DO NOTHING` and one SELECT of the resulting rows (new and existing).
   */
  async add(p: Principal, groupId: string, items: ValidItem<VisibilityOverrideItem>[]): Promise<Map<number, ItemOutcome<VisibilityOverride>>> {
    const out = new Map<number, ItemOutcome<VisibilityOverride>>();
    const decoded = this.decode(items, out);
    const live = await this.publishedCourses.existingIds(
      p.organizationId,
      decoded.map((r) => r.pc),
    );
    const rows = decoded.filter((r) => {
      if (live.has(r.pc)) return true;
      out.set(r.v.index, notFoundCourse);
      return false;
    });
    if (!rows.length) return out;
    const pcs = rows.map((r) => r.pc);
    const visibles = rows.map((r) => r.visible);
    await scoped(this.overrides, p.organizationId).query(
      `INSERT INTO visibility_overrides (organization_id, group_id, published_course_id, is_visible)
       SELECT $org, $1, t.pc, t.visible FROM unnest($2::uuid[], $3::boolean[]) AS t(pc, visible)
       ON CONFLICT (group_id, published_course_id, is_visible) DO NOTHING`,
      [groupId, pcs, visibles],
    );
    const found = rowsOf<VisibilityOverrideRow>(
      await scoped(this.overrides, p.organizationId).query<unknown>(
        `SELECT ${COLUMNS} FROM visibility_overrides
         WHERE organization_id = $org AND group_id = $1
           AND (published_course_id, is_visible) IN (SELECT t.pc, t.visible FROM unnest($2::uuid[], $3::boolean[]) AS t(pc, visible))`,
        [groupId, pcs, visibles],
      ),
    );
    const byTuple = new Map(found.map((r) => [`${r.published_course_id}|${r.is_visible}`, entityFromRow(this.overrides, r)]));
    for (const r of rows) {
      const o = byTuple.get(`${r.pc}|${r.visible}`);
      if (!o) {
        // removed (or its course unpublished and purged) between the insert and the select
        out.set(r.v.index, { ok: false, code: 'internal_error', detail: 'The override could not be added.' });
        continue;
      }
      // the override's public id (overrideId); the controller presents the row
      out.set(r.v.index, { ok: true, id: encodeId('visibilityOverride', o.id), result: o });
    }
    return out;
  }

  /**
   * Remove: one `DELETE ... RETURNING`; for the tuples that were absent, one lookup tells an
   * existing published course of the organization (absent tuple: succeeds) from an unknown one
   * (not_found). The result id echoes the published_course_id as sent.
   */
  async remove(p: Principal, groupId: string, items: ValidItem<VisibilityOverrideItem>[]): Promise<Map<number, ItemOutcome<never>>> {
    const out = new Map<number, ItemOutcome<never>>();
    const rows = this.decode(items, out);
    if (!rows.length) return out;
    const deleted = rowsOf<Pick<VisibilityOverrideRow, 'published_course_id' | 'is_visible'>>(
      await scoped(this.overrides, p.organizationId).query<unknown>(
        `DELETE FROM visibility_overrides
         WHERE organization_id = $org AND group_id = $1
           AND (published_course_id, is_visible) IN (SELECT t.pc, t.visible FROM unnest($2::uuid[], $3::boolean[]) AS t(pc, visible))
         RETURNING published_course_id, is_visible`,
        [groupId, rows.map((r) => r.pc), rows.map((r) => r.visible)],
      ),
    );
    const gone = new Set(deleted.map((r) => `${r.published_course_id}|${r.is_visible}`));
    const absent = rows.filter((r) => !gone.has(`${r.pc}|${r.visible}`));
    const live = await this.publishedCourses.existingIds(
      p.organizationId,
      absent.map((r) => r.pc),
    );
    for (const r of rows) {
      const ok = gone.has(`${r.pc}|${r.visible}`) || live.has(r.pc);
      out.set(r.v.index, ok ? { ok: true, id: r.v.item.attributes.published_course_id, deleted: true } : notFoundCourse);
    }
    return out;
  }
}
