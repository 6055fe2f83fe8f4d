import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { Principal } from '../../core/auth/principal';
import { notFound, ValidationFailed } from '../../core/http/api-error';
import { decodeId, encodeId } from '../../core/ids/ids';
import type { V1PageRequest } from '../../core/pagination/v1-page';
import { LinkRows, LinkTable, ParentOf } from '../../core/pagination/link-rows';
import { v1SinceSql } from '../../core/pagination/updated-since';
import { scoped } from '../../core/database/scoped';
import { invalidPk } from '../../core/http/v1-rules';
import { DomainsService } from '../domains/domains.service';
import type { PublishedCourseRow } from './published-courses.store';
import { PublishedCoursesService } from './published-courses.service';
import { GroupVisibilityWrites } from './group-visibility-writes';
import type { PublishedCourseGroupVisibilityV1, PublishedCoursePrerequisiteV1, PublishedCourseStudentGroupPrerequisiteV1, PublishedCourseTagV1 } from './published-courses.shape';

export interface TagRow {
  id: string;
  name: string;
  slug: string;
}

export interface OverrideRow {
  id: string;
  name: string;
  is_visible: boolean;
}

export const presentTagRef = (t: TagRow): PublishedCourseTagV1['tag'] => ({ id: encodeId('tag', t.id), name: t.name, slug: t.slug });
/** PublishedCourseTag (published-courses.shape.ts). */
export const presentCourseTag = (t: TagRow): PublishedCourseTagV1 => ({ tag: presentTagRef(t) });
/** PublishedCourseGroupVisibility. */
export const presentCourseOverride = (o: OverrideRow): PublishedCourseGroupVisibilityV1 => ({ student_group: { id: encodeId('group', o.id), name: o.name }, is_visible: o.is_visible });
/** PublishedCoursePrerequisite. */
export const presentPrerequisite = (r: { id: string }): PublishedCoursePrerequisiteV1 => ({ published_course: { id: encodeId('publishedCourse', r.id) } });
/** PublishedCourseStudentGroupPrerequisite. */
export const presentGroupPrerequisite = (g: GroupRef): PublishedCourseStudentGroupPrerequisiteV1 => ({ student_group: { id: encodeId('group', g.id), name: g.name } });

interface GroupRef {
  id: string;
  name: string;
}

/** A link of the published course: made and removed, never changed (its `created_at` is its last change, for updated_since, on `<table>_list_idx`). */
const courseLink = (table: string, column: string, target: string, kind: LinkTable['kind'], columns: string[], member: string): LinkTable => ({
  table,
  parent: 'published_course_id',
  column,
  target,
  kind,
  columns,
  member,
});

/**
 * OpenAPI-only sub-resources of a published course (live, of the domain and organization; else
 * 404): its tags (table published_course_tags, tags of the content module), its student-group
 * visibility overrides (the shared visibility_overrides table of the groups module, written here
 * with narrowly-scoped SQL), its published-course and its student-group prerequisites. The
 * operations take the caller, the domain name, the published course's id, then the page, body or
 * linked id (as @V1Resource passes them).
 */
@Injectable()
export class PublishedCourseExtrasService {
  readonly tags: LinkRows<TagRow>;
  readonly groupPrerequisites: LinkRows<GroupRef>;

  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly domains: DomainsService,
    private readonly published: PublishedCoursesService,
    private readonly overrides: GroupVisibilityWrites,
  ) {
    const parent: ParentOf = async (p, [domainName, id]) => (await this.live(p, domainName, id)).id;
    this.tags = new LinkRows(ds, parent, courseLink('published_course_tags', 'tag_id', 'tags', 'tag', ['id', 'name', 'slug'], 'tag'));
    this.groupPrerequisites = new LinkRows(ds, parent, courseLink('published_course_group_prerequisites', 'group_id', 'groups', 'group', ['id', 'name'], 'student_group'));
  }

  /** The live published course `id` of the domain named `domainName` (404 otherwise). */
  private async live(p: Principal, domainName: string, id: string): Promise<PublishedCourseRow> {
    return this.published.get(p, await this.domains.requireByName(p, domainName), id);
  }

  /** The tags of a page of published courses (include_searchable_content), one query. */
  async tagsOf(p: Principal, pcIds: string[]): Promise<Map<string, TagRow[]>> {
    const out = new Map<string, TagRow[]>();
    if (!pcIds.length) return out;
    const rows = await scoped(this.ds, p.organizationId).query<(TagRow & { pc: string })[]>(
      `SELECT pt.published_course_id AS pc, tg.id, tg.name, tg.slug FROM published_course_tags pt JOIN tags tg ON tg.id = pt.tag_id
       WHERE pt.published_course_id = ANY($1::uuid[]) AND pt.organization_id = $org ORDER BY pt.created_at, pt.tag_id`,
      [pcIds],
    );
    for (const r of rows) out.set(r.pc, [...(out.get(r.pc) ?? []), { id: r.id, name: r.name, slug: r.slug }]);
    return out;
  }

  private overridesFrom = `FROM visibility_overrides vo JOIN groups g ON g.id = vo.group_id AND g.organization_id = vo.organization_id
                           WHERE vo.published_course_id = $1 AND vo.organization_id = $org`;

  async listOverrides(p: Principal, domainName: string, id: string, page: V1PageRequest): Promise<{ rows: OverrideRow[]; count: number }> {
    const pc = await this.live(p, domainName, id);
    const db = scoped(this.ds, p.organizationId);
    // updated_since: the overrides written since (a write sets updated_at), by last change, on visibility_overrides_pc_updated_idx
    const since = v1SinceSql(page, 'vo.updated_at', 2, 'vo.created_at, vo.id');
    const params = [pc.id, ...since.params];
    const [{ n }] = await db.query<{ n: number }[]>(`SELECT count(*)::int AS n ${this.overridesFrom}${since.and}`, params);
    const rows = await db.query<OverrideRow[]>(`SELECT g.id, g.name, vo.is_visible ${this.overridesFrom}${since.and} ORDER BY ${since.order} LIMIT ${page.pageSize} OFFSET ${page.offset}`, params);
    return { rows, count: n };
  }

  /**
   * One override per group on /v1: creating one for a group replaces an opposite one (the /v2 model
   * allows an allow and a block row for the same group; /v1 writes keep a single row).
   */
  async setOverride(p: Principal, domainName: string, id: string, dto: { student_group: { id: string }; is_visible: boolean }): Promise<OverrideRow> {
    const pc = await this.live(p, domainName, id);
    const { id: groupId } = dto.student_group;
    const isVisible = dto.is_visible;
    const uuid = decodeId('group', groupId);
    const rows: { id: string; name: string }[] = uuid
      ? await scoped(this.ds, p.organizationId).query<{ id: string; name: string }[]>(`SELECT id, name FROM groups WHERE organization_id = $org AND id = $1`, [uuid])
      : [];
    if (!rows.length) throw invalidPk('student_group.id', groupId);
    await this.ds.transaction((m) => this.overrides.setSingleOverride(m, p.organizationId, rows[0].id, pc.id, isVisible));
    return { ...rows[0], is_visible: isVisible };
  }

  /** The group's override (the most recently written one if /v2 left both an allow and a block). */
  async readOverride(p: Principal, domainName: string, id: string, groupId: string): Promise<OverrideRow> {
    return (await this.override(p, await this.live(p, domainName, id), groupId)).row;
  }

  private async override(p: Principal, pc: PublishedCourseRow, groupId: string): Promise<{ pc: PublishedCourseRow; row: OverrideRow }> {
    const uuid = decodeId('group', groupId);
    const rows: OverrideRow[] = uuid
      ? await scoped(this.ds, p.organizationId).query<OverrideRow[]>(`SELECT g.id, g.name, vo.is_visible ${this.overridesFrom} AND vo.group_id = $2 ORDER BY vo.updated_at DESC, vo.id LIMIT 1`, [
          pc.id,
          uuid,
        ])
      : [];
    if (!rows.length) throw notFound();
    return { pc, row: rows[0] };
  }

  async removeOverride(p: Principal, domainName: string, id: string, groupId: string): Promise<void> {
    const { pc, row } = await this.override(p, await this.live(p, domainName, id), groupId);
    await this.overrides.deleteOverrides(this.ds.manager, p.organizationId, row.id, pc.id);
  }

  // ---- prerequisites (OpenAPI-only)

  async listPrerequisites(p: Principal, domainName: string, id: string, page: V1PageRequest): Promise<{ rows: { id: string }[]; count: number }> {
    const pc = await this.live(p, domainName, id);
    const from = `FROM published_course_prerequisites pr JOIN published_courses q ON q.id = pr.prerequisite_id AND q.unpublished_at IS NULL
                  WHERE pr.published_course_id = $1 AND pr.organization_id = $org`;
    const db = scoped(this.ds, p.organizationId);
    // updated_since: the links made since (a link is never changed), in their order, on published_course_prerequisites_list_idx
    const since = v1SinceSql(page, 'pr.created_at', 2, 'pr.created_at, pr.prerequisite_id', 'pr.prerequisite_id');
    const params = [pc.id, ...since.params];
    const [{ n }] = await db.query<{ n: number }[]>(`SELECT count(*)::int AS n ${from}${since.and}`, params);
    const rows = await db.query<{ id: string }[]>(`SELECT pr.prerequisite_id AS id ${from}${since.and} ORDER BY ${since.order} LIMIT ${page.pageSize} OFFSET ${page.offset}`, params);
    return { rows, count: n };
  }

  /**
   * Link a prerequisite: a live published course of the same domain, not the course itself, and not
   * one that (directly or through others) already requires this course (no cycles). Idempotent.
   */
  async addPrerequisite(p: Principal, domainName: string, id: string, dto: { published_course: { id: string } }): Promise<{ id: string }> {
    const pc = await this.live(p, domainName, id);
    const prerequisiteId = dto.published_course.id;
    const uuid = decodeId('publishedCourse', prerequisiteId);
    return scoped(this.ds, p.organizationId).transaction(async (tx) => {
      // serialize prerequisite writes of the organization so the cycle check holds
      await tx.query(`SELECT pg_advisory_xact_lock(hashtextextended($org, 8))`);
      const rows = uuid
        ? await tx.query<{ id: string }[]>(
            `SELECT q.id FROM published_courses q JOIN published_courses me ON me.id = $2 AND me.domain_id = q.domain_id
             WHERE q.id = $1 AND q.organization_id = $org AND q.unpublished_at IS NULL`,
            [uuid, pc.id],
          )
        : [];
      if (!rows.length) throw invalidPk('published_course.id', prerequisiteId);
      if (rows[0].id === pc.id) throw new ValidationFailed([{ field: 'published_course.id', message: 'A published course cannot be its own prerequisite.' }], 400);
      const [cycle] = await tx.query<{ x: number }[]>(
        `WITH RECURSIVE req(id) AS (
           SELECT prerequisite_id FROM published_course_prerequisites WHERE published_course_id = $1 AND organization_id = $org
           UNION SELECT pr.prerequisite_id FROM published_course_prerequisites pr JOIN req ON pr.published_course_id = req.id WHERE pr.organization_id = $org)
         SELECT 1 AS x FROM req WHERE id = $2 LIMIT 1`,
        [rows[0].id, pc.id],
      );
      if (cycle) throw new ValidationFailed([{ field: 'published_course.id', message: 'This prerequisite would create a cycle.' }], 400);
      await tx.query(`INSERT INTO published_course_prerequisites (published_course_id, prerequisite_id, organization_id) VALUES ($1, $2, $org) ON CONFLICT DO NOTHING`, [pc.id, rows[0].id]);
      return rows[0];
    });
  }

  async removePrerequisite(p: Principal, domainName: string, id: string, prerequisiteId: string): Promise<void> {
    const pc = await this.live(p, domainName, id);
    const uuid = decodeId('publishedCourse', prerequisiteId);
    // (a DELETE through DataSource.query answers [rows, count]: count the deleted rows with a SELECT)
    const [res] = uuid
      ? await scoped(this.ds, p.organizationId).query<{ n: number }[]>(
          `WITH d AS (DELETE FROM published_course_prerequisites WHERE published_course_id = $1 AND prerequisite_id = $2 AND organization_id = $org RETURNING 1)
           SELECT count(*)::int AS n FROM d`,
          [pc.id, uuid],
        )
      : [{ n: 0 }];
    if (!res.n) throw notFound();
  }
}
