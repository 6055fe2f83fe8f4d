import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { scoped } from '../../core/database/scoped';
import type { Principal } from '../../core/auth/principal';
import type { V1PageRequest } from '../../core/pagination/v1-page';
import type { Domain } from '../domains/domain.entity';
import { loadOffers, OfferRow } from '../commerce/offers';
import { LivePrograms } from '../plans/live-programs';
import { CourseSeries } from './course-series.entity';
import type { PublishedCourseSettingsRow } from '../published-courses/published-courses.store';
import { liveLesson } from '../../core/database/fragments';

export interface CourseSeriesView {
  series: CourseSeries;
  domainName: string;
  courseCount: number;
  offer: OfferRow | undefined;
}

/** A published course of a series, with its course stats (one query per page). */
export interface SeriesCourseRow extends PublishedCourseSettingsRow {
  id: string;
  course_id: string;
  title: string;
  slug: string;
  lesson_count: number;
  required_count: number;
  offer?: OfferRow;
}

/** The number of live published courses of each series. One query. */
async function courseCounts(m: EntityManager, organizationId: string, ids: string[]): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  if (!ids.length) return out;
  const rows = await scoped(m, organizationId).query<{ id: string; n: number }[]>(
    `SELECT csi.course_series_id AS id, count(*)::int AS n FROM course_series_items csi
       JOIN published_courses pc ON pc.id = csi.published_course_id AND pc.organization_id = $org AND pc.unpublished_at IS NULL
      WHERE csi.organization_id = $org AND csi.course_series_id = ANY($1::uuid[]) GROUP BY csi.course_series_id`,
    [ids],
  );
  for (const r of rows) out.set(r.id, r.n);
  return out;
}

/** Course series of a domain: the /v1 reads (course-series-admin.service.ts writes them). */
@Injectable()
export class CourseSeriesService extends LivePrograms<CourseSeries, CourseSeriesView>(CourseSeries, 'courseSeries') {
  protected async views(m: EntityManager, organizationId: string, domain: Domain, series: CourseSeries[]): Promise<CourseSeriesView[]> {
    const ids = series.map((s) => s.id);
    const [counts, offers] = await Promise.all([courseCounts(m, organizationId, ids), loadOffers(m, organizationId, 'course_series_id', ids)]);
    return series.map((s) => ({ series: s, domainName: domain.name, courseCount: counts.get(s.id) ?? 0, offer: offers.get(s.id) }));
  }

  /**
   * The series' live published courses in series order. With `updatedSince` (/v1 `updated_since`), the
   * ones whose place in the series changed since: a series' item rows are rewritten on every change of
   * its courses, so an item's `created_at` is its last change; by last change, on
   * course_series_items_series_created_idx (a change of the published course itself shows on the
   * domain's published-courses list).
   */
  async publishedCourses(p: Principal, domainName: string, id: string, page: V1PageRequest, updatedSince?: Date): Promise<{ rows: SeriesCourseRow[]; count: number; domainName: string }> {
    const domain = await this.domains.requireByName(p, domainName);
    const m = this.ds.manager;
    const s = await this.byPublicId(m, p, domain, id);
    const from = `FROM course_series_items csi
                  JOIN published_courses pc ON pc.id = csi.published_course_id AND pc.unpublished_at IS NULL AND pc.organization_id = $org
                  JOIN courses c ON c.id = pc.course_id
                 WHERE csi.course_series_id = $1${updatedSince ? ' AND csi.created_at >= $2' : ''}`;
    const params = updatedSince ? [s.id, updatedSince] : [s.id];
    const db = scoped(m, p.organizationId);
    const [{ n }] = await db.query<{ n: number }[]>(`SELECT count(*)::int AS n ${from}`, params);
    const rows = await db.query<SeriesCourseRow[]>(
      `SELECT pc.id, pc.course_id, c.title, pc.slug, pc.is_hidden, pc.strict_enforce_group_visibility, pc.registration_required,
              pc.registration_starts_at, pc.registration_ends_at, pc.restrict_access_start_end_dates, pc.allow_self_service_reenroll,
              pc.unique_progress_per_enrollment, pc.require_all_prerequisites,
              COALESCE(ls.lesson_count, 0)::int AS lesson_count, COALESCE(ls.required_count, 0)::int AS required_count
         ${from.replace(
           'WHERE',
           `LEFT JOIN LATERAL (SELECT count(*) AS lesson_count, count(*) FILTER (WHERE NOT l.optional) AS required_count
                                FROM lessons l WHERE l.course_id = c.id AND ${liveLesson('l')}) ls ON true
            WHERE`,
         )}
        ORDER BY ${updatedSince ? 'csi.created_at, csi.id' : 'csi."order", csi.id'} LIMIT ${page.pageSize} OFFSET ${page.offset}`,
      params,
    );
    const offers = await loadOffers(
      m,
      p.organizationId,
      'published_course_id',
      rows.map((r) => r.id),
    );
    for (const r of rows) r.offer = offers.get(r.id);
    return { rows, count: n, domainName: domain.name };
  }
}
