import { DRF } from '../../core/http/drf-messages';
import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, In, IsNull, Repository } from 'typeorm';
import type { Principal } from '../../core/auth/principal';
import { notFound, ValidationFailed } from '../../core/http/api-error';
import { decodeId } from '../../core/ids/ids';
import { parseTimestamptz, poolRead, PoolRead, TEXT_TIMESTAMPS } from '../../core/database/pool-reads';
import type { V1PageRequest } from '../../core/pagination/v1-page';
import type { Domain } from '../domains/domain.entity';
import { parseTimestamp } from '../../core/http/v1-rules';
import { loadOffers, OfferRow } from '../commerce/offers';
import { PublishedCourseCreateDto, PublishedCourseWriteDto } from './dto/published-course.dto';
import { PublishedCourse } from './published-course.entity';
import { LessonStats, PUBLISHED_COURSE_SELECT, PublishedCourseRow, SearchableLesson } from './published-courses.store';
import { PUBLISH_MESSAGES, PublicationsService, SLUG_RE, WINDOW_MESSAGE, windowReversed } from './publications.service';
import { liveLesson } from '../../core/database/fragments';
import { scoped } from '../../core/database/scoped';

const SELECT = PUBLISHED_COURSE_SELECT;

/** Lesson counts of a page's courses (a fixed text: a pg named statement). */
const LESSON_STATS: PoolRead = {
  name: 'published_courses_v1_lesson_stats',
  sql: `SELECT course_id, count(*)::int AS n, (count(*) FILTER (WHERE NOT optional))::int AS req
       FROM lessons WHERE organization_id = $org AND course_id = ANY($1::uuid[]) AND ${liveLesson()} AND type <> 'SECTION'
       GROUP BY course_id`,
};

/**
 * A catalog page's rows read with TEXT_TIMESTAMPS: the registration window becomes pg's own Date
 * again (what the presenter shows, only when set); created_at, not shown, stays text (no Date per row).
 */
type CatalogTextRow = Omit<PublishedCourseRow, 'registration_starts_at' | 'registration_ends_at'> & {
  registration_starts_at: Date | string | null;
  registration_ends_at: Date | string | null;
  total_count: number;
};
function withWindowDates(rows: CatalogTextRow[]): (PublishedCourseRow & { total_count: number })[] {
  for (const r of rows) {
    if (typeof r.registration_starts_at === 'string') r.registration_starts_at = parseTimestamptz(r.registration_starts_at);
    if (typeof r.registration_ends_at === 'string') r.registration_ends_at = parseTimestamptz(r.registration_ends_at);
  }
  return rows as (PublishedCourseRow & { total_count: number })[];
}

const fieldError = (field: string, message: string) => new ValidationFailed([{ field, message }], 400);

/**
 * Published courses. Other modules use this service (never the repository) to resolve
 * published-course ids within an organization. The /v1 catalog operations: list (with catalog
 * search), create, read, update and unpublish (delete). A published course is "live" while
 * unpublished_at is null and its course is not deleted; everything else is not found.
 */
@Injectable()
export class PublishedCoursesService {
  constructor(
    @InjectRepository(PublishedCourse) private readonly repo: Repository<PublishedCourse>,
    @InjectDataSource() private readonly ds: DataSource,
    private readonly publications: PublicationsService,
  ) {}

  /** The subset of `ids` (uuids) that are live published courses of the organization. */
  async existingIds(organizationId: string, ids: string[]): Promise<Set<string>> {
    if (!ids.length) return new Set();
    const rows = await this.repo.find({ select: { id: true }, where: { organizationId, id: In([...new Set(ids)]), unpublishedAt: IsNull() } });
    return new Set(rows.map((r) => r.id));
  }

  /**
   * GET /v1/domains/{d}/published-courses. Without `search`: oldest first. With `search`: the
   * catalog-search order — courses whose title matches first, then those whose lessons' search
   * keywords match, then description matches; within each band by ts_rank (weights A title,
   * B keywords, C descriptions), then oldest first. Served by the GIN index on courses.search_vector.
   */
  async list(p: Principal, domain: Domain, page: V1PageRequest, filters: { courseId?: string; search?: string; updatedSince?: Date }): Promise<{ rows: PublishedCourseRow[]; count: number }> {
    const params: unknown[] = [domain.id];
    const where = [`pc.organization_id = $org`, `pc.domain_id = $1`, `pc.unpublished_at IS NULL`];
    if (filters.courseId !== undefined) {
      const uuid = decodeId('course', filters.courseId);
      if (!uuid) return { rows: [], count: 0 };
      params.push(uuid);
      where.push(`pc.course_id = $${params.length}`);
    }
    // updated_since: changed at or after, ordered by last change (docs/decisions/data-out.md), on published_courses_domain_updated_idx
    if (filters.updatedSince) where.push(`pc.updated_at >= $${params.push(filters.updatedSince)}`);
    let order = filters.updatedSince ? `pc.updated_at, pc.id` : `pc.created_at, pc.id`;
    let from = `published_courses pc JOIN courses c ON c.id = pc.course_id AND c.deleted_at IS NULL`;
    const search = filters.search?.trim();
    if (search) {
      params.push(search);
      from += `, websearch_to_tsquery('english', $${params.length}) AS q`;
      where.push(`c.search_vector @@ q`);
      order = `(ts_filter(c.search_vector, '{a}') @@ q) DESC, (ts_filter(c.search_vector, '{b}') @@ q) DESC,
        ts_rank('{0.1, 0.2, 0.4, 1.0}', c.search_vector, q) DESC, ${order}`;
    }
    // the catalog's statements go straight to the pg pool (poolRead: no QueryRunner per statement, issue 16)
    const whereSql = where.join(' AND ');
    const countQuery = async () => (await poolRead<{ n: number }>(this.ds, p.organizationId, { sql: `SELECT count(*)::int AS n FROM ${from} WHERE ${whereSql}` }, params))[0].n;
    if (search) {
      // every match is ranked anyway: take the total from the same scan (window count)
      const rows = await poolRead<CatalogTextRow>(
        this.ds,
        p.organizationId,
        { sql: `SELECT ${SELECT}, count(*) OVER ()::int AS total_count FROM ${from} WHERE ${whereSql} ORDER BY ${order} LIMIT ${page.pageSize} OFFSET ${page.offset}`, types: TEXT_TIMESTAMPS },
        params,
      ).then(withWindowDates);
      return { rows, count: rows.length ? rows[0].total_count : page.offset ? await countQuery() : 0 };
    }
    const [count, rows] = [
      await countQuery(),
      withWindowDates(
        await poolRead<CatalogTextRow>(
          this.ds,
          p.organizationId,
          { sql: `SELECT ${SELECT} FROM ${from} WHERE ${whereSql} ORDER BY ${order} LIMIT ${page.pageSize} OFFSET ${page.offset}`, types: TEXT_TIMESTAMPS },
          params,
        ),
      ),
    ];
    return { rows, count };
  }

  /** One live published course of the domain, or 404 (undecodable, other org/domain, unpublished). */
  async get(p: Principal, domain: Domain, publicId: string): Promise<PublishedCourseRow> {
    const uuid = decodeId('publishedCourse', publicId);
    if (!uuid) throw notFound();
    const [row]: PublishedCourseRow[] = await scoped(this.ds, p.organizationId).query(
      `SELECT ${SELECT} FROM published_courses pc JOIN courses c ON c.id = pc.course_id AND c.deleted_at IS NULL
       WHERE pc.id = $1 AND pc.organization_id = $org AND pc.domain_id = $2 AND pc.unpublished_at IS NULL`,
      [uuid, domain.id],
    );
    if (!row) throw notFound();
    return row;
  }

  /** The offer of each published course (made with it by the offers trigger, commerce), one query. */
  offers(p: Principal, ids: string[]): Promise<Map<string, OfferRow>> {
    return loadOffers(this.ds.manager, p.organizationId, 'published_course_id', ids);
  }

  /** Lesson counts of the courses of a page, one query. Sections are not lessons. */
  async lessonStats(p: Principal, courseIds: string[]): Promise<Map<string, LessonStats>> {
    const out = new Map<string, LessonStats>();
    if (!courseIds.length) return out;
    const rows = await poolRead<{ course_id: string; n: number; req: number }>(this.ds, p.organizationId, LESSON_STATS, [[...new Set(courseIds)]]);
    for (const r of rows) out.set(r.course_id, { lessonCount: r.n, requiredLessonCount: r.req });
    return out;
  }

  /** The lessons of the courses of a page (include_searchable_content), one query. */
  async searchableLessons(p: Principal, courseIds: string[]): Promise<Map<string, SearchableLesson[]>> {
    const out = new Map<string, SearchableLesson[]>();
    if (!courseIds.length) return out;
    const rows: (SearchableLesson & { course_id: string })[] = await scoped(this.ds, p.organizationId).query(
      `SELECT id, course_id, title, type, "order", search_keywords FROM lessons
       WHERE organization_id = $org AND course_id = ANY($1::uuid[]) AND ${liveLesson()}
       ORDER BY course_id, "order", created_at, id`,
      [[...new Set(courseIds)]],
    );
    for (const r of rows) {
      const list = out.get(r.course_id) ?? [];
      list.push({ id: r.id, title: r.title, type: r.type, order: r.order, search_keywords: r.search_keywords });
      out.set(r.course_id, list);
    }
    return out;
  }

  /** POST: publish a course of the organization to the domain. */
  async create(p: Principal, domain: Domain, dto: PublishedCourseCreateDto): Promise<PublishedCourseRow> {
    const ref = dto.course;
    if (ref === undefined || ref === null) throw fieldError('course', ref === null ? DRF.null : DRF.required);
    if (typeof ref !== 'object' || Array.isArray(ref)) throw fieldError('course', DRF.dict(ref));
    const rawId = (ref as Record<string, unknown>).id;
    if (typeof rawId !== 'string' || !rawId) throw fieldError('course', 'The course id is required.');
    const courseId = decodeId('course', rawId);
    const values = this.writeValues(dto);
    const [outcome] = await this.publications.publishMany(p.organizationId, [{ courseId, domainId: domain.id, slug: dto.slug, values }]);
    if (!outcome.ok) {
      if (outcome.reason === 'course' || outcome.reason === 'domain') throw fieldError('course', `Invalid id "${rawId}" - object does not exist.`);
      throw fieldError(outcome.reason === 'already_published' ? 'course' : 'slug', PUBLISH_MESSAGES[outcome.reason]);
    }
    const [out]: PublishedCourseRow[] = await scoped(this.ds, p.organizationId).query(
      `SELECT ${SELECT} FROM published_courses pc JOIN courses c ON c.id = pc.course_id AND c.organization_id = pc.organization_id WHERE pc.id = $1 AND pc.organization_id = $org`,
      [outcome.id],
    );
    return out;
  }

  /** PUT / PATCH: both partial. */
  async update(p: Principal, domain: Domain, publicId: string, dto: PublishedCourseWriteDto): Promise<PublishedCourseRow> {
    const current = await this.get(p, domain, publicId);
    const values = this.writeValues(dto);
    await this.ds.transaction(async (m) => {
      if (dto.slug !== undefined) {
        const slug = this.checkSlug(dto.slug);
        if (slug !== current.slug) {
          await m.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 6))`, [domain.id]);
          if (await this.publications.slugTaken(m, domain, slug, current.id)) throw fieldError('slug', PUBLISH_MESSAGES.slug_taken);
        }
        values.slug = slug;
      }
      const keys = Object.keys(values);
      if (!keys.length) return;
      await scoped(m, p.organizationId).query(
        `UPDATE published_courses SET ${keys.map((k, i) => `${k} = $${i + 2}`).join(', ')}, updated_at = date_trunc('milliseconds', now())
         WHERE id = $1 AND organization_id = $org AND unpublished_at IS NULL`,
        [current.id, ...Object.values(values)],
      );
    });
    return this.get(p, domain, publicId);
  }

  /**
   * DELETE: unpublish. The row stays (unpublished_at set) so enrollments, certificates and their
   * history keep pointing at it; it leaves the domain's lists and reads (404 afterwards).
   */
  async unpublish(p: Principal, domain: Domain, publicId: string): Promise<void> {
    const current = await this.get(p, domain, publicId);
    await this.publications.setUnpublished(p.organizationId, current.id);
  }

  private checkSlug(slug: string): string {
    if (!SLUG_RE.test(slug)) throw fieldError('slug', PUBLISH_MESSAGES.slug_invalid);
    return slug;
  }

  /** The column values of the optional members present in a create/update body. */
  private writeValues(dto: PublishedCourseWriteDto): Record<string, unknown> {
    const v: Record<string, unknown> = {};
    if (dto.hidden !== undefined) v.is_hidden = dto.hidden;
    if (dto.strict_enforce_group_visibility !== undefined) v.strict_enforce_group_visibility = dto.strict_enforce_group_visibility;
    if (dto.registration_required !== undefined) v.registration_required = dto.registration_required;
    if (dto.restrict_access_start_end_dates !== undefined) v.restrict_access_start_end_dates = dto.restrict_access_start_end_dates;
    if (dto.allow_self_service_reenroll !== undefined) v.allow_self_service_reenroll = dto.allow_self_service_reenroll;
    if (dto.unique_progress_per_enrollment !== undefined) v.unique_progress_per_enrollment = dto.unique_progress_per_enrollment;
    if (dto.require_all_prerequisites !== undefined) v.require_all_prerequisites = dto.require_all_prerequisites;
    const starts = parseTimestamp('registration_starts_at', dto.registration_starts_at, true);
    const ends = parseTimestamp('registration_ends_at', dto.registration_ends_at, true);
    if (starts !== undefined) v.registration_starts_at = starts;
    if (ends !== undefined) v.registration_ends_at = ends;
    if (windowReversed(starts, ends)) throw fieldError('registration_ends_at', WINDOW_MESSAGE);
    return v;
  }
}
