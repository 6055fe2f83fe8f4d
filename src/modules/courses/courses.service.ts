import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { DataSource, EntityManager, Repository } from 'typeorm';
import type { Principal } from '../../core/auth/principal';
import type { ItemOutcome, ValidItem } from '../../core/batch/batch';
import { decodeId, newUuid } from '../../core/ids/ids';
import { PageRequest } from '../../core/pagination/cursor-page';
import { Course } from './course.entity';
import type { CourseFields, CourseView } from './courses.shape';
import { publicIdsOf } from '../../core/ids/public-ids';
import { poolRead, poolRowOr404 } from '../../core/database/pool-reads';
import { CourseCreateItem, CourseUpdateItem } from './dto/course.dto';
import { externalIdOf } from '../../core/ids/external-id';
import { escapeLike } from '../../core/http/query-params';
import { scoped } from '../../core/database/scoped';
import { entityFromRow } from '../../core/database/entity-rows';
import { COURSE_COLUMNS, CourseStatsColumns, CourseViewRow } from './courses.store';
import { averageRating, liveCourse } from '../../core/database/fragments';

export interface CourseStats {
  lessonCount: number;
  lessonsUpdatedAt: Date | null;
  averageRating: number | null;
  isPublished: boolean;
}

const NO_STATS: CourseStats = { lessonCount: 0, lessonsUpdatedAt: null, averageRating: null, isPublished: false };

/**
 * The computed attributes of the courses whose ids `ids` (an SQL uuid[] expression) gives: lesson
 * count and the newest lesson change (non-deleted lessons; drafts are not counted), the average
 * rating on the organization's active scale, and whether a live published course exists. CTEs
 * l, r and p, joined on the course id by statsJoins, selected as STATS_COLUMNS.
 */
const statsCtes = (ids: string) =>
  `l AS (
     SELECT course_id, count(*) FILTER (WHERE NOT is_draft)::int AS n, max(updated_at) AS m
       FROM lessons WHERE organization_id = $org AND course_id = ANY(${ids}) AND deleted_at IS NULL GROUP BY course_id),
   r AS (
     SELECT course_id, ${averageRating('rating')} AS avg
       FROM course_ratings
      WHERE organization_id = $org AND course_id = ANY(${ids})
        AND scale_max = (SELECT rating_scale FROM organizations WHERE id = $org)
      GROUP BY course_id),
   p AS (
     SELECT DISTINCT course_id FROM published_courses
      WHERE organization_id = $org AND course_id = ANY(${ids}) AND unpublished_at IS NULL)`;
const STATS_COLUMNS = 'COALESCE(l.n, 0) AS lesson_count, l.m AS lessons_updated_at, r.avg AS average_rating, (p.course_id IS NOT NULL) AS is_published';
const statsJoins = (id: string) => `LEFT JOIN l ON l.course_id = ${id} LEFT JOIN r ON r.course_id = ${id} LEFT JOIN p ON p.course_id = ${id}`;

/** Live courses (not soft-deleted, not drafts) of the organization matching `where`, with their computed attributes, in `tail` order. */
const liveSql = (where: string, tail: string) =>
  `WITH page AS (SELECT ${COURSE_COLUMNS} FROM "courses" WHERE organization_id = $org AND ${liveCourse()}${where}${tail}),
   ${statsCtes('ARRAY(SELECT id FROM page)')}
   SELECT page.*, ${STATS_COLUMNS} FROM page ${statsJoins('page.id')}`;

/**
 * A keyset page (size + 1 rows: LIMIT is the last parameter, $limit) of live courses matching `where`, in
 * `by` order (created_at; updated_at under filter[updated_since], on courses_org_updated_idx).
 */
const pageSql = (where: string, limit: number, by: 'created_at' | 'updated_at' = 'created_at') =>
  `${liveSql(where, ` ORDER BY ${by} ASC, id ASC LIMIT $${limit}`)} ORDER BY page.${by} ASC, page.id ASC`;

const READS = {
  list: { name: 'courses_v2_list', sql: pageSql('', 1) },
  listAfter: { name: 'courses_v2_list_after', sql: pageSql(' AND (created_at, id) > ($1::timestamptz, $2::uuid)', 3) },
  get: { name: 'courses_v2_get', sql: liveSql(' AND id = $1', '') },
} as const;

const statsOfRow = (r: CourseStatsColumns): CourseStats => ({
  lessonCount: Number(r.lesson_count),
  lessonsUpdatedAt: r.lessons_updated_at,
  averageRating: r.average_rating === null ? null : Number(r.average_rating),
  isPublished: !!r.is_published,
});

/** A row of liveSql → the course and its computed attributes (CourseViewRow: COURSE_COLUMNS and STATS_COLUMNS). */
const viewOfRow = (r: CourseViewRow): CourseView => ({
  course: {
    id: r.id,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    externalId: r.external_id,
    title: r.title,
    shortDescription: r.short_description,
    longDescriptionHtml: r.long_description_html,
    enforceSequentialNavigation: r.enforce_sequential_navigation,
    promoImageUrl: r.promo_image_url,
    issuesCertificate: r.issues_certificate,
    certificateValidityDays: r.certificate_validity_days,
  },
  stats: statsOfRow(r),
});

/**
 * Courses on /v2: only live courses (not soft-deleted, not drafts) exist for the caller. Every
 * query filters on the caller's organization. Writes are set-wise: a batch of 100 is one
 * INSERT (plus one lookup of created_by_email) or one UPDATE ... FROM (VALUES ...) plus one
 * statement for the computed attributes.
 */
@Injectable()
export class CoursesService {
  constructor(@InjectRepository(Course) private readonly courses: Repository<Course>) {}

  private get ds(): DataSource {
    return this.courses.manager.connection;
  }

  /**
   * A keyset page of live courses and their computed attributes in ONE statement (pageSql), the
   * rows mapped by hand (no query builder, no entity hydration); on the partial index
   * (organization_id, created_at, id) of live courses, or the pg_trgm index on lower(title) when
   * filtered by title. The unfiltered page (first or after a cursor) is a named statement.
   */
  async list(p: Principal, page: PageRequest, filter: { title?: string; updatedSince?: Date }): Promise<CourseView[]> {
    const params: unknown[] = [];
    let where = '';
    if (filter.title !== undefined && filter.title !== '') {
      where += ` AND lower(title) LIKE $${params.push(`%${escapeLike(filter.title.toLowerCase())}%`)} ESCAPE '\\'`;
    }
    // filter[updated_since]: changed at or after, ordered by last change (docs/decisions/data-out.md)
    const by = filter.updatedSince ? 'updated_at' : 'created_at';
    if (filter.updatedSince) where += ` AND updated_at >= $${params.push(filter.updatedSince)}`;
    if (page.after) where += ` AND (${by}, id) > ($${params.push(page.after.t)}::timestamptz, $${params.push(page.after.id)}::uuid)`;
    const read = by === 'created_at' && where === '' ? READS.list : by === 'created_at' && params.length === 2 && page.after ? READS.listAfter : { sql: pageSql(where, params.length + 1, by) };
    params.push(page.size + 1);
    return (await poolRead<CourseViewRow>(this.ds, p.organizationId, read, params)).map(viewOfRow);
  }

  async get(p: Principal, publicId: string): Promise<CourseView> {
    return viewOfRow(await poolRowOr404<CourseViewRow>(this.ds, p.organizationId, 'course', publicId, READS.get, 'Course not found.'));
  }

  /** The subset of `uuids` that are live courses of the organization (optionally locked (FOR NO KEY UPDATE: serializes lesson appends, never blocks foreign-key checks) in `manager`'s transaction). */
  async liveIds(organizationId: string, uuids: string[], opts: { manager?: EntityManager; lock?: boolean } = {}): Promise<Set<string>> {
    const ids = [...new Set(uuids)];
    if (!ids.length) return new Set();
    const m = opts.manager ?? this.courses.manager;
    const rows: { id: string }[] = await scoped(m, organizationId).query(
      `SELECT id FROM courses WHERE organization_id = $org AND id = ANY($1::uuid[]) AND ${liveCourse()}${opts.lock ? ' FOR NO KEY UPDATE' : ''}`,
      [ids],
    );
    return new Set(rows.map((r) => r.id));
  }

  /**
   * The computed attributes of a page of courses in ONE statement: lesson count and the newest
   * lesson change (non-deleted lessons; drafts are not counted), the average rating on the
   * organization's active scale, and whether a live published course exists.
   */
  async withStats(organizationId: string, courses: CourseFields[]): Promise<CourseView[]> {
    if (!courses.length) return [];
    const rows: ({ id: string } & CourseStatsColumns)[] = await scoped(this.courses, organizationId).query(
      `WITH ${statsCtes('$1::uuid[]')}
       SELECT ids.id, ${STATS_COLUMNS} FROM unnest($1::uuid[]) AS ids(id) ${statsJoins('ids.id')}`,
      [courses.map((c) => c.id)],
    );
    const byId = new Map<string, CourseStats>(rows.map((r) => [r.id, statsOfRow(r)]));
    return courses.map((course) => ({ course, stats: byId.get(course.id) ?? NO_STATS }));
  }

  /**
   * Batch create: no within-batch dedupe. A `created_by_email` must name an active student or an
   * administrator of the organization (case-insensitive), else that row alone fails. One lookup,
   * one multi-row INSERT.
   */
  async createMany(p: Principal, items: ValidItem<CourseCreateItem>[]): Promise<Map<number, ItemOutcome<CourseView>>> {
    const out = new Map<number, ItemOutcome<CourseView>>();
    const org = p.organizationId;
    const emails = [
      ...new Set(
        items
          .map((v) => v.item.attributes.created_by_email)
          .filter((e): e is string => !!e)
          .map((e) => e.toLowerCase()),
      ),
    ];
    const known = new Map<string, string>();
    if (emails.length) {
      const rows: { key: string; email: string }[] = await scoped(this.courses, org).query(
        `SELECT lower(email) AS key, email FROM users
          WHERE organization_id = $org AND lower(email) = ANY($1::text[]) AND NOT is_inactive AND NOT is_anonymized
         UNION ALL
         SELECT lower(email) AS key, email FROM admins WHERE organization_id = $org AND lower(email) = ANY($1::text[])`,
        [emails],
      );
      for (const r of rows) if (!known.has(r.key)) known.set(r.key, r.email);
    }
    const toInsert: { index: number; id: string; values: unknown[] }[] = [];
    for (const v of items) {
      const a = v.item.attributes;
      let createdBy: string | null = null;
      if (a.created_by_email) {
        const found = known.get(a.created_by_email.toLowerCase());
        if (!found) {
          out.set(v.index, {
            ok: false,
            code: 'validation_error',
            detail: 'created_by_email: no user of this organization has that email.',
            pointer: '/attributes/created_by_email',
          });
          continue;
        }
        createdBy = found;
      }
      const id = newUuid();
      toInsert.push({
        index: v.index,
        id,
        values: [
          id,
          org,
          a.title,
          a.short_description ?? '',
          a.long_description_html ?? '',
          a.enforce_sequential_navigation ?? false,
          createdBy,
          externalIdOf('course', id, null),
          a.issues_certificate ?? true,
          a.certificate_validity_days ?? null,
        ],
      });
    }
    if (toInsert.length) {
      const params: unknown[] = [];
      const tuples = toInsert.map((r) => {
        const base = params.length;
        params.push(...r.values);
        return `(${r.values.map((_, i) => `$${base + i + 1}${i === 9 ? '::int' : ''}`).join(', ')})`;
      });
      const rows: Record<string, unknown>[] = await this.courses.query(
        `INSERT INTO courses (id, organization_id, title, short_description, long_description_html, enforce_sequential_navigation, created_by_email, external_id,
                              issues_certificate, certificate_validity_days)
         VALUES ${tuples.join(', ')} RETURNING *`,
        params,
      );
      const byId = new Map(rows.map((r) => [r.id as string, entityFromRow(this.courses, r)]));
      for (const r of toInsert) {
        const course = byId.get(r.id);
        if (!course) continue; // left to the engine as internal_error
        out.set(r.index, { ok: true, id: publicIdsOf('course', course.id).id, result: { course, stats: NO_STATS } });
      }
    }
    return out;
  }

  /**
   * Batch update by id: malformed, missing, other-organization, soft-deleted and draft ids are
   * not_found. Null or omitted attributes leave the value unchanged. Repeated ids in one batch are
   * applied in request order (later values win) and every such item returns the final course.
   * One UPDATE ... FROM (VALUES ...) RETURNING, one statement for the computed attributes.
   */
  async updateMany(p: Principal, items: ValidItem<CourseUpdateItem>[]): Promise<Map<number, ItemOutcome<CourseView>>> {
    const out = new Map<number, ItemOutcome<CourseView>>();
    // certificate settings (extensions): issues_certificate null = unchanged; certificate_validity_days absent = unchanged, null = never expires
    const merged = new Map<
      string,
      { title: string | null; short: string | null; long: string | null; seq: boolean | null; cert: boolean | null; setDays: boolean; days: number | null; indexes: number[] }
    >();
    for (const v of items) {
      const uuid = decodeId('course', v.item.id);
      if (!uuid) {
        out.set(v.index, { ok: false, code: 'not_found', detail: 'Course not found.', pointer: '/id' });
        continue;
      }
      const a = v.item.attributes;
      const m = merged.get(uuid) ?? { title: null, short: null, long: null, seq: null, cert: null, setDays: false, days: null, indexes: [] };
      m.title = a.title ?? m.title;
      m.short = a.short_description ?? m.short;
      m.long = a.long_description_html ?? m.long;
      m.seq = a.enforce_sequential_navigation ?? m.seq;
      m.cert = a.issues_certificate ?? m.cert;
      if ('certificate_validity_days' in (v.raw.attributes ?? {})) {
        m.setDays = true;
        m.days = a.certificate_validity_days ?? null;
      }
      m.indexes.push(v.index);
      merged.set(uuid, m);
    }
    if (!merged.size) return out;
    const params: unknown[] = [];
    const tuples: string[] = [];
    for (const [id, m] of merged) {
      const b = params.length;
      params.push(id, m.title, m.short, m.long, m.seq, m.cert, m.setDays, m.days);
      tuples.push(`($${b + 1}::uuid, $${b + 2}::text, $${b + 3}::text, $${b + 4}::text, $${b + 5}::boolean, $${b + 6}::boolean, $${b + 7}::boolean, $${b + 8}::int)`);
    }
    const [rows]: [Record<string, unknown>[], number] = await scoped(this.courses, p.organizationId).query(
      `UPDATE courses AS c SET
          title = COALESCE(v.title, c.title),
          short_description = COALESCE(v.short_description, c.short_description),
          long_description_html = COALESCE(v.long_description_html, c.long_description_html),
          enforce_sequential_navigation = COALESCE(v.seq, c.enforce_sequential_navigation),
          issues_certificate = COALESCE(v.cert, c.issues_certificate),
          certificate_validity_days = CASE WHEN v.set_days THEN v.days ELSE c.certificate_validity_days END,
          updated_at = date_trunc('milliseconds', now())
         FROM (VALUES ${tuples.join(', ')}) AS v(id, title, short_description, long_description_html, seq, cert, set_days, days)
        WHERE c.id = v.id AND c.organization_id = $org AND ${liveCourse('c')}
        RETURNING c.*`,
      params,
    );
    const views = await this.withStats(
      p.organizationId,
      rows.map((r) => entityFromRow(this.courses, r)),
    );
    const byId = new Map(views.map((v) => [v.course.id, v]));
    for (const [id, m] of merged) {
      const view = byId.get(id);
      for (const index of m.indexes) {
        out.set(index, view ? { ok: true, id: publicIdsOf('course', id).id, result: view } : { ok: false, code: 'not_found', detail: 'Course not found.', pointer: '/id' });
      }
    }
    return out;
  }
}
