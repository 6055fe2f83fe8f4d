import { DRF } from '../../core/http/drf-messages';
import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, In, IsNull, Repository } from 'typeorm';
import type { Principal } from '../../core/auth/principal';
import { notFound, ValidationFailed } from '../../core/http/api-error';
import { decodeId, newUuid } from '../../core/ids/ids';
import { scoped } from '../../core/database/scoped';
import { rowsOf } from '../../core/database/sql';
import type { V1PageRequest } from '../../core/pagination/v1-page';
import type { Domain } from '../domains/domain.entity';
import { parseTimestamp } from '../../core/http/v1-rules';
import { loadOffers, OfferRow } from '../commerce/offers';
import { PublishedCourseCreateDto, PublishedCourseWriteDto } from './dto/published-course.dto';
import { PublishedCourse } from './published-course.entity';
import { LessonStats, PublishedCourseRow, SearchableLesson } from './published-courses.presenter';

const SLUG_RE = /^[a-z0-9]+(-[a-z0-9]+)*$/;

/** Columns of the published-course queries (alias pc = published_courses, c = courses). */
const SELECT = `pc.id, pc.course_id, pc.slug, pc.is_hidden, pc.strict_enforce_group_visibility, pc.registration_required,
  pc.registration_starts_at, pc.registration_ends_at, pc.restrict_access_start_end_dates, pc.allow_self_service_reenroll,
  pc.unique_progress_per_enrollment, pc.require_all_prerequisites, pc.created_at,
  c.title AS course_title, c.short_description AS course_short_description, c.long_description_html AS course_long_description_html`;

const fieldError = (field: string, message: string) => new ValidationFailed([{ field, message }], 400);

/** The settings columns a publication or an update may set (both interfaces). */
const PUBLISH_COLUMNS = new Set([
  'is_hidden', 'visible_on_catalog', 'open_access', 'strict_enforce_group_visibility', 'visibility_override_type', 'registration_required',
  'registration_starts_at', 'registration_ends_at', 'restrict_access_start_end_dates', 'allow_self_service_reenroll',
  'unique_progress_per_enrollment', 'require_all_prerequisites',
]);

/** One publication to make: decoded ids (null when undecodable), an explicit slug or none, and column values (PUBLISH_COLUMNS). */
export interface PublishRequest {
  courseId: string | null;
  domainId: string | null;
  slug?: string;
  values: Record<string, unknown>;
}

export type PublishRefusal = 'course' | 'domain' | 'already_published' | 'slug_invalid' | 'slug_taken';
export type PublishOutcome = { ok: true; id: string } | { ok: false; reason: PublishRefusal };

/** What each refusal says (both interfaces). */
export const PUBLISH_MESSAGES: Record<PublishRefusal, string> = {
  course: 'The course does not exist.',
  domain: 'The domain does not exist.',
  already_published: 'This course is already published on this domain.',
  slug_invalid: 'Enter a valid "slug" consisting of lowercase letters, numbers and hyphens.',
  slug_taken: 'A published course with this slug already exists on this domain.',
};

/** The registration (access) window rule: its end must not precede its start. */
export const WINDOW_MESSAGE = 'The end of the registration period must not precede its start.';
export const windowReversed = (starts: Date | null | undefined, ends: Date | null | undefined): boolean => !!starts && !!ends && ends < starts;

export function slugify(title: string): string {
  const s = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 90)
    .replace(/-+$/g, '');
  return s || 'course';
}

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
  async list(p: Principal, domain: Domain, page: V1PageRequest, filters: { courseId?: string; search?: string }): Promise<{ rows: PublishedCourseRow[]; count: number }> {
    const params: unknown[] = [p.organizationId, domain.id];
    const where = [`pc.organization_id = $1`, `pc.domain_id = $2`, `pc.unpublished_at IS NULL`];
    if (filters.courseId !== undefined) {
      const uuid = decodeId('course', filters.courseId);
      if (!uuid) return { rows: [], count: 0 };
      params.push(uuid);
      where.push(`pc.course_id = $${params.length}`);
    }
    let order = `pc.created_at, pc.id`;
    let from = `published_courses pc JOIN courses c ON c.id = pc.course_id AND c.deleted_at IS NULL`;
    const search = filters.search?.trim();
    if (search) {
      params.push(search);
      from += `, websearch_to_tsquery('english', $${params.length}) AS q`;
      where.push(`c.search_vector @@ q`);
      order = `(ts_filter(c.search_vector, '{a}') @@ q) DESC, (ts_filter(c.search_vector, '{b}') @@ q) DESC,
        ts_rank('{0.1, 0.2, 0.4, 1.0}', c.search_vector, q) DESC, pc.created_at, pc.id`;
    }
    const whereSql = where.join(' AND ');
    const countQuery = async () => (await this.ds.query(`SELECT count(*)::int AS n FROM ${from} WHERE ${whereSql}`, params))[0].n as number;
    if (search) {
      // every match is ranked anyway: take the total from the same scan (window count)
      const rows = await this.ds.query(
        `SELECT ${SELECT}, count(*) OVER ()::int AS total_count FROM ${from} WHERE ${whereSql} ORDER BY ${order} LIMIT ${page.pageSize} OFFSET ${page.offset}`,
        params,
      );
      return { rows, count: rows.length ? rows[0].total_count : page.offset ? await countQuery() : 0 };
    }
    const [count, rows] = [await countQuery(), await this.ds.query(`SELECT ${SELECT} FROM ${from} WHERE ${whereSql} ORDER BY ${order} LIMIT ${page.pageSize} OFFSET ${page.offset}`, params)];
    return { rows, count };
  }

  /** One live published course of the domain, or 404 (undecodable, other org/domain, unpublished). */
  async get(p: Principal, domain: Domain, publicId: string): Promise<PublishedCourseRow> {
    const uuid = decodeId('publishedCourse', publicId);
    if (!uuid) throw notFound();
    const [row] = await this.ds.query(
      `SELECT ${SELECT} FROM published_courses pc JOIN courses c ON c.id = pc.course_id AND c.deleted_at IS NULL
       WHERE pc.id = $1 AND pc.organization_id = $2 AND pc.domain_id = $3 AND pc.unpublished_at IS NULL`,
      [uuid, p.organizationId, domain.id],
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
    const rows = await this.ds.query(
      `SELECT course_id, count(*)::int AS n, (count(*) FILTER (WHERE NOT optional))::int AS req
       FROM lessons WHERE organization_id = $1 AND course_id = ANY($2::uuid[]) AND deleted_at IS NULL AND NOT is_draft AND type <> 'SECTION'
       GROUP BY course_id`,
      [p.organizationId, [...new Set(courseIds)]],
    );
    for (const r of rows) out.set(r.course_id, { lessonCount: r.n, requiredLessonCount: r.req });
    return out;
  }

  /** The lessons of the courses of a page (include_searchable_content), one query. */
  async searchableLessons(p: Principal, courseIds: string[]): Promise<Map<string, SearchableLesson[]>> {
    const out = new Map<string, SearchableLesson[]>();
    if (!courseIds.length) return out;
    const rows = await this.ds.query(
      `SELECT id, course_id, title, type, "order", search_keywords FROM lessons
       WHERE organization_id = $1 AND course_id = ANY($2::uuid[]) AND deleted_at IS NULL AND NOT is_draft
       ORDER BY course_id, "order", created_at, id`,
      [p.organizationId, [...new Set(courseIds)]],
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
    const [outcome] = await this.publishMany(p.organizationId, [{ courseId, domainId: domain.id, slug: dto.slug, values }]);
    if (!outcome.ok) {
      if (outcome.reason === 'course' || outcome.reason === 'domain') throw fieldError('course', `Invalid id "${rawId}" - object does not exist.`);
      throw fieldError(outcome.reason === 'already_published' ? 'course' : 'slug', PUBLISH_MESSAGES[outcome.reason]);
    }
    const [out] = await this.ds.query(
      `SELECT ${SELECT} FROM published_courses pc JOIN courses c ON c.id = pc.course_id AND c.organization_id = pc.organization_id WHERE pc.id = $1 AND pc.organization_id = $2`,
      [outcome.id, p.organizationId],
    );
    return out;
  }

  /**
   * Publish courses to domains (/v1 one, /v2 a batch), set-wise in one transaction: the domains
   * involved are locked (the same advisory lock as every publication and slug change on a domain,
   * so concurrent publications take turns), then one statement each reads the live courses, the
   * organization's domains, the (domain, course) pairs already live and the slugs in use; one
   * multi-row INSERT writes the accepted ones. Rules, in order: the course must be a live course of
   * the organization, the domain one of its domains, the course not already live on the domain
   * (earlier requests of the same call count), an explicit slug valid (SLUG_RE) and free on the
   * domain; without one the course title's slug, or its first free -2, -3... . Outcomes in order.
   */
  async publishMany(organizationId: string, requests: PublishRequest[]): Promise<PublishOutcome[]> {
    const courseIds = [...new Set(requests.map((r) => r.courseId).filter((id): id is string => !!id))];
    const domainIds = [...new Set(requests.map((r) => r.domainId).filter((id): id is string => !!id))];
    return scoped(this.ds, organizationId).transaction(async (tx, m) => {
      const domains = new Set(
        domainIds.length ? (await tx.query<{ id: string }[]>(`SELECT id FROM domains WHERE organization_id = $org AND id = ANY($1::uuid[])`, [domainIds])).map((d) => d.id) : [],
      );
      const locked = [...domains].sort();
      // serialize publications on these domains (in one order: no deadlock between two batches)
      if (locked.length) await m.query(`SELECT pg_advisory_xact_lock(hashtextextended(d, 6)) FROM unnest($1::text[]) AS x(d)`, [locked]);
      const courses = new Map<string, string>(
        courseIds.length
          ? (await tx.query<{ id: string; title: string }[]>(`SELECT id, title FROM courses WHERE organization_id = $org AND id = ANY($1::uuid[]) AND deleted_at IS NULL AND NOT is_draft`, [courseIds])).map((c) => [c.id, c.title])
          : [],
      );
      const live = new Set<string>();
      if (locked.length && courses.size) {
        const rows: { domain_id: string; course_id: string }[] = await tx.query(
          `SELECT domain_id, course_id FROM published_courses
            WHERE organization_id = $org AND domain_id = ANY($1::uuid[]) AND course_id = ANY($2::uuid[]) AND unpublished_at IS NULL`,
          [locked, [...courses.keys()]],
        );
        for (const r of rows) live.add(`${r.domain_id}/${r.course_id}`);
      }
      // the slugs each accepted request wants (explicit, or the title's base)
      const out: PublishOutcome[] = [];
      const wanted: { index: number; domainId: string; courseId: string; slug: string; explicit: boolean }[] = [];
      requests.forEach((r, index) => {
        if (!r.courseId || !courses.has(r.courseId)) return void (out[index] = { ok: false, reason: 'course' });
        if (!r.domainId || !domains.has(r.domainId)) return void (out[index] = { ok: false, reason: 'domain' });
        const pair = `${r.domainId}/${r.courseId}`;
        if (live.has(pair)) return void (out[index] = { ok: false, reason: 'already_published' });
        if (r.slug !== undefined && !SLUG_RE.test(r.slug)) return void (out[index] = { ok: false, reason: 'slug_invalid' });
        live.add(pair);
        wanted.push({ index, domainId: r.domainId, courseId: r.courseId, slug: r.slug ?? slugify(courses.get(r.courseId)!), explicit: r.slug !== undefined });
      });
      if (!wanted.length) return out;
      const bases = [...new Set(wanted.map((w) => w.slug.toLowerCase()))];
      const taken: { domain_id: string; slug: string }[] = await tx.query(
        `SELECT domain_id, lower(slug) AS slug FROM published_courses
          WHERE organization_id = $org AND domain_id = ANY($1::uuid[]) AND unpublished_at IS NULL
            AND (lower(slug) = ANY($2::text[]) OR lower(slug) LIKE ANY($3::text[]))`,
        [[...new Set(wanted.map((w) => w.domainId))], bases, bases.map((b) => `${b.replace(/[\\%_]/g, '\\$&')}-%`)],
      );
      const inUse = new Set(taken.map((t) => `${t.domain_id}/${t.slug}`));
      const rows: { index: number; id: string; request: PublishRequest; slug: string }[] = [];
      for (const w of wanted) {
        let slug = w.slug;
        if (w.explicit) {
          if (inUse.has(`${w.domainId}/${slug.toLowerCase()}`)) {
            live.delete(`${w.domainId}/${w.courseId}`);
            out[w.index] = { ok: false, reason: 'slug_taken' };
            continue;
          }
        } else {
          for (let i = 2; inUse.has(`${w.domainId}/${slug}`); i++) slug = `${w.slug}-${i}`;
        }
        inUse.add(`${w.domainId}/${slug.toLowerCase()}`);
        rows.push({ index: w.index, id: newUuid(), request: requests[w.index], slug });
      }
      if (!rows.length) return out;
      const columns = [...new Set(rows.flatMap((r) => Object.keys(r.request.values)))].filter((c) => PUBLISH_COLUMNS.has(c));
      const params: unknown[] = [];
      const tuples = rows.map((r) => {
        const own = [r.id, r.request.courseId, r.request.domainId, r.slug].map((v) => {
          params.push(v);
          return `$${params.length}`;
        });
        const rest = columns.map((c) => {
          if (!(c in r.request.values)) return 'DEFAULT';
          params.push(r.request.values[c]);
          return `$${params.length}`;
        });
        return `($org, ${[...own, ...rest].join(', ')})`;
      });
      await tx.query(`INSERT INTO published_courses (organization_id, id, course_id, domain_id, slug${columns.map((c) => `, ${c}`).join('')}) VALUES ${tuples.join(', ')}`, params);
      for (const r of rows) out[r.index] = { ok: true, id: r.id };
      return out;
    });
  }

  /**
   * Update settings of the organization's published courses (live or not; their course not
   * deleted), set-wise: one UPDATE ... FROM (VALUES ...) over a JSON object of the columns to set
   * per row (a member present with null clears a timestamp). Returns the ids updated.
   */
  async updateSettings(organizationId: string, updates: Map<string, Record<string, unknown>>): Promise<Set<string>> {
    if (!updates.size) return new Set();
    const params: unknown[] = [];
    const tuples = [...updates].map(([id, values]) => {
      const known = Object.fromEntries(Object.entries(values).filter(([c]) => PUBLISH_COLUMNS.has(c)));
      params.push(id, JSON.stringify(known));
      return `($${params.length - 1}::uuid, $${params.length}::jsonb)`;
    });
    const set = [...PUBLISH_COLUMNS].map((c) => {
      const type = c.endsWith('_at') ? 'timestamptz' : c === 'visibility_override_type' ? 'text' : 'boolean';
      return `${c} = CASE WHEN v.j ? '${c}' THEN (v.j->>'${c}')::${type} ELSE pc.${c} END`;
    });
    const result = await scoped(this.ds, organizationId).query(
      `UPDATE published_courses AS pc SET ${set.join(', ')}, updated_at = date_trunc('milliseconds', now())
         FROM (VALUES ${tuples.join(', ')}) AS v(id, j)
        WHERE pc.id = v.id AND pc.organization_id = $org
          AND EXISTS (SELECT 1 FROM courses c WHERE c.id = pc.course_id AND c.organization_id = $org AND c.deleted_at IS NULL)
        RETURNING pc.id`,
      params,
    );
    return new Set(rowsOf<{ id: string }>(result).map((r) => r.id));
  }

  /**
   * Take a published course off its domain (unpublished_at set; the row and its history stay; the
   * slug is free for others). Already unpublished: nothing changes. False when no such row.
   */
  async setUnpublished(organizationId: string, id: string): Promise<void> {
    await scoped(this.ds, organizationId).query(
      `UPDATE published_courses SET unpublished_at = date_trunc('milliseconds', now()), updated_at = date_trunc('milliseconds', now())
       WHERE id = $1 AND organization_id = $org AND unpublished_at IS NULL`,
      [id],
    );
  }

  /**
   * Put an unpublished course back on its domain (under the domain's lock): refused when the course
   * is live there again through another row; its slug when still free, else the first free -2, -3... .
   * Already live: nothing changes.
   */
  async republish(organizationId: string, id: string): Promise<{ ok: true } | { ok: false; reason: 'already_published' }> {
    return scoped(this.ds, organizationId).transaction(async (tx, m) => {
      const [row]: { domain_id: string; course_id: string; slug: string; unpublished_at: Date | null }[] = await tx.query(
        `SELECT domain_id, course_id, slug, unpublished_at FROM published_courses WHERE id = $1 AND organization_id = $org`,
        [id],
      );
      if (!row || row.unpublished_at === null) return { ok: true };
      await m.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 6))`, [row.domain_id]);
      const [again] = await tx.query(
        `SELECT 1 FROM published_courses WHERE organization_id = $org AND domain_id = $1 AND course_id = $2 AND unpublished_at IS NULL`,
        [row.domain_id, row.course_id],
      );
      if (again) return { ok: false, reason: 'already_published' };
      const domain = { id: row.domain_id, organizationId };
      const slug = (await this.slugTaken(m, domain, row.slug)) ? await this.freeSlug(m, domain, row.slug.toLowerCase()) : row.slug;
      await tx.query(
        `UPDATE published_courses SET unpublished_at = NULL, slug = $2, updated_at = date_trunc('milliseconds', now())
         WHERE id = $1 AND organization_id = $org AND unpublished_at IS NOT NULL`,
        [id, slug],
      );
      return { ok: true };
    });
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
          if (await this.slugTaken(m, domain, slug, current.id)) throw fieldError('slug', PUBLISH_MESSAGES.slug_taken);
        }
        values.slug = slug;
      }
      const keys = Object.keys(values);
      if (!keys.length) return;
      await m.query(
        `UPDATE published_courses SET ${keys.map((k, i) => `${k} = $${i + 3}`).join(', ')}, updated_at = date_trunc('milliseconds', now())
         WHERE id = $1 AND organization_id = $2 AND unpublished_at IS NULL`,
        [current.id, p.organizationId, ...Object.values(values)],
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
    await this.setUnpublished(p.organizationId, current.id);
  }

  private checkSlug(slug: string): string {
    if (!SLUG_RE.test(slug)) throw fieldError('slug', PUBLISH_MESSAGES.slug_invalid);
    return slug;
  }

  private async slugTaken(m: { query: DataSource['query'] }, domain: { id: string; organizationId: string }, slug: string, exceptId?: string): Promise<boolean> {
    const rows = await m.query(
      `SELECT 1 FROM published_courses WHERE domain_id = $1 AND organization_id = $4 AND lower(slug) = lower($2) AND unpublished_at IS NULL AND id <> $3::uuid`,
      [domain.id, slug, exceptId ?? '00000000-0000-0000-0000-000000000000', domain.organizationId],
    );
    return rows.length > 0;
  }

  /** `base`, or base-2, base-3, ... : the first slug free on the domain. */
  private async freeSlug(m: { query: DataSource['query'] }, domain: { id: string; organizationId: string }, base: string): Promise<string> {
    const rows: { slug: string }[] = await m.query(
      `SELECT lower(slug) AS slug FROM published_courses WHERE domain_id = $1 AND organization_id = $4 AND unpublished_at IS NULL AND (lower(slug) = $2 OR lower(slug) LIKE $3)`,
      [domain.id, base, `${base.replace(/[\\%_]/g, '\\$&')}-%`, domain.organizationId],
    );
    const taken = new Set(rows.map((r) => r.slug));
    if (!taken.has(base)) return base;
    for (let i = 2; ; i++) if (!taken.has(`${base}-${i}`)) return `${base}-${i}`;
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
