import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { Principal } from '../../core/auth/principal';
import { notFound } from '../../core/http/api-error';
import { SentNames, sentMembers } from '../../core/http/sent-members';
import { decodeId } from '../../core/ids/ids';
import type { V1PageRequest } from '../../core/pagination/v1-page';
import { Course } from './course.entity';
import { CourseLabelsService } from './course-labels.service';
import type { PatchedCourseRequest } from './dto/course.v1.dto';
import { oneOr404, setColumns, softDelete } from '../../core/database/v1-rows';
import { scoped } from '../../core/database/scoped';
import { averageRating, liveCourse, liveLesson } from '../../core/database/fragments';

/** The members of a /v1 course update written to the row (labels are written apart), and their columns. */
const COURSE_COLUMNS: SentNames<PatchedCourseRequest, Course> = {
  title: 'title',
  short_description: 'shortDescription',
  enforce_sequential_navigation: 'enforceSequentialNavigation',
  long_description_html: 'longDescriptionHtml',
  display_course_and_lesson_time: 'displayCourseAndLessonTime',
  manual_course_time: 'manualCourseTime',
  display_manual_course_time: 'displayManualCourseTime',
  course_and_lesson_time_format: 'courseAndLessonTimeFormat',
  issues_certificate: 'issuesCertificate',
  certificate_validity_days: 'certificateValidityDays',
};

/** The facts a v1 Course needs beyond its row, loaded for a whole page at once. */
export interface CourseExtras {
  labels: Map<string, string[]>;
  seconds: Map<string, number>;
  ratings: Map<string, number>;
}

const LIVE = `c.organization_id = :org AND ${liveCourse('c')}`;

/**
 * /v1 courses over the shared courses table: the same rows and ids (encodeId('course')) as /v2.
 * Drafts and soft-deleted courses behave as missing; delete is a soft delete.
 */
@Injectable()
export class V1CoursesService {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly labels: CourseLabelsService,
  ) {}

  /** `updatedSince` (extension): changed at or after, ordered by last change (courses_org_updated_idx; docs/decisions/data-out.md). */
  async list(p: Principal, page: V1PageRequest, labelName?: string, updatedSince?: Date): Promise<[Course[], number]> {
    const qb = this.ds.getRepository(Course).createQueryBuilder('c').where(LIVE, { org: p.organizationId });
    if (labelName !== undefined) {
      qb.andWhere(
        `EXISTS (SELECT 1 FROM course_labels cl JOIN labels l ON l.id = cl.label_id
                 WHERE cl.course_id = c.id AND l.organization_id = :org AND l.name = :labelName)`,
        { labelName },
      );
    }
    if (updatedSince) qb.andWhere('c.updated_at >= :updatedSince', { updatedSince });
    return qb
      .orderBy(updatedSince ? 'c.updated_at' : 'c.created_at', 'ASC')
      .addOrderBy('c.id', 'ASC')
      .skip(page.offset)
      .take(page.pageSize)
      .getManyAndCount();
  }

  /** A live course of the organization by public id, or 404. */
  async get(p: Principal, id: string, m: EntityManager = this.ds.manager, lock = false): Promise<Course> {
    const uuid = decodeId('course', id);
    if (!uuid) throw notFound();
    return oneOr404(m.getRepository(Course).createQueryBuilder('c').where(`c.id = :id AND ${LIVE}`, { id: uuid, org: p.organizationId }), lock);
  }

  async create(p: Principal, dto: PatchedCourseRequest): Promise<Course> {
    return this.ds.transaction(async (m) => {
      const row = m.getRepository(Course).create({
        organizationId: p.organizationId,
        title: dto.title!,
        shortDescription: dto.short_description!,
        enforceSequentialNavigation: dto.enforce_sequential_navigation!,
        longDescriptionHtml: dto.long_description_html ?? '',
        promoImageUrl: '',
        displayCourseAndLessonTime: dto.display_course_and_lesson_time ?? false,
        manualCourseTime: dto.manual_course_time ?? '',
        displayManualCourseTime: dto.display_manual_course_time ?? false,
        courseAndLessonTimeFormat: dto.course_and_lesson_time_format ?? 'HOURS_MINUTES',
        isDraft: false,
        draftOriginId: null,
        deletedAt: null,
        issuesCertificate: dto.issues_certificate ?? true,
        certificateValidityDays: dto.certificate_validity_days ?? null,
      });
      const saved = await m.getRepository(Course).save(row);
      if (dto.labels?.length) await this.labels.set(m, p, saved.id, dto.labels);
      return saved;
    });
  }

  /** PUT and PATCH: both change only the members sent (PUT has required its three members). */
  async update(p: Principal, id: string, dto: PatchedCourseRequest): Promise<Course> {
    return this.ds.transaction(async (m) => {
      const row = await this.get(p, id, m, true);
      // modified_at moves on every update, also when only the labels change.
      await setColumns(m, Course, p.organizationId, row.id, sentMembers(dto, COURSE_COLUMNS));
      if (dto.labels !== undefined) await this.labels.set(m, p, row.id, dto.labels);
      return m.getRepository(Course).findOneByOrFail({ id: row.id, organizationId: p.organizationId });
    });
  }

  async delete(p: Principal, id: string): Promise<void> {
    const row = await this.get(p, id);
    await softDelete(this.ds.manager, Course, p.organizationId, row.id, () => 'now()');
  }

  // ---- presentation ----

  /** Everything the presenter needs for these courses, in three queries whatever the page size. */
  async extras(p: Principal, courses: Course[]): Promise<CourseExtras> {
    const ids = courses.map((c) => c.id);
    const out: CourseExtras = { labels: new Map(), seconds: new Map(), ratings: new Map() };
    if (!ids.length) return out;
    const db = scoped(this.ds, p.organizationId);
    const [labels, seconds, ratings] = await Promise.all([
      db.query<{ course_id: string; name: string }[]>(
        `SELECT cl.course_id, l.name FROM course_labels cl JOIN labels l ON l.id = cl.label_id
         WHERE cl.course_id = ANY($1::uuid[]) AND cl.organization_id = $org ORDER BY cl.created_at, l.name`,
        [ids],
      ),
      db.query<{ course_id: string; s: string }[]>(
        `SELECT course_id, COALESCE(sum(time_seconds), 0)::bigint AS s FROM lessons
         WHERE course_id = ANY($1::uuid[]) AND organization_id = $org AND ${liveLesson()}
         GROUP BY course_id`,
        [ids],
      ),
      // Only ratings on the organization's active scale count (as /v2 average_rating).
      db.query<{ course_id: string; a: number }[]>(
        `SELECT r.course_id, ${averageRating('r.rating')} AS a FROM course_ratings r JOIN organizations o ON o.id = r.organization_id
         WHERE r.course_id = ANY($1::uuid[]) AND r.organization_id = $org AND r.scale_max = o.rating_scale
         GROUP BY r.course_id`,
        [ids],
      ),
    ]);
    for (const r of labels) {
      const list = out.labels.get(r.course_id) ?? [];
      list.push(r.name);
      out.labels.set(r.course_id, list);
    }
    for (const r of seconds) out.seconds.set(r.course_id, Number(r.s));
    for (const r of ratings) out.ratings.set(r.course_id, r.a);
    return out;
  }
}
