import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { Principal } from '../../core/auth/principal';
import { ValidationFailed, notFound } from '../../core/http/api-error';
import { decodeId, encodeId } from '../../core/ids/ids';
import type { V1PageRequest } from '../../core/pagination/v1-page';
import { courseTime } from './course-time';
import type { PatchedCourseRequest } from './dto/course.dto';
import { CourseLabel, Label, V1Course } from './entities';
import { LabelsService } from './labels.service';

/** The facts a v1 Course needs beyond its row, loaded for a whole page at once. */
interface CourseExtras {
  labels: Map<string, string[]>;
  seconds: Map<string, number>;
  ratings: Map<string, number>;
}

const LIVE = 'c.organization_id = :org AND c.deleted_at IS NULL AND NOT c.is_draft';

/**
 * /v1 courses over the shared courses table: the same rows and ids (encodeId('course')) as /v2.
 * Drafts and soft-deleted courses behave as missing; delete is a soft delete.
 */
@Injectable()
export class V1CoursesService {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly labels: LabelsService,
  ) {}

  async list(p: Principal, page: V1PageRequest, labelName?: string): Promise<[V1Course[], number]> {
    const qb = this.ds.getRepository(V1Course).createQueryBuilder('c').where(LIVE, { org: p.organizationId });
    if (labelName !== undefined) {
      qb.andWhere(
        `EXISTS (SELECT 1 FROM course_labels cl JOIN labels l ON l.id = cl.label_id
                 WHERE cl.course_id = c.id AND l.organization_id = :org AND l.name = :labelName)`,
        { labelName },
      );
    }
    return qb.orderBy('c.created_at', 'ASC').addOrderBy('c.id', 'ASC').skip(page.offset).take(page.pageSize).getManyAndCount();
  }

  /** A live course of the organization by public id, or 404. */
  async get(p: Principal, id: string, m: EntityManager = this.ds.manager, lock = false): Promise<V1Course> {
    const uuid = decodeId('course', id);
    if (!uuid) throw notFound();
    const qb = m.getRepository(V1Course).createQueryBuilder('c').where(`c.id = :id AND ${LIVE}`, { id: uuid, org: p.organizationId });
    if (lock) qb.setLock('pessimistic_write');
    const row = await qb.getOne();
    if (!row) throw notFound();
    return row;
  }

  async create(p: Principal, dto: PatchedCourseRequest): Promise<V1Course> {
    return this.ds.transaction(async (m) => {
      const row = m.getRepository(V1Course).create({
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
      });
      const saved = await m.getRepository(V1Course).save(row);
      if (dto.labels?.length) await this.setLabels(m, p, saved.id, dto.labels);
      return saved;
    });
  }

  /** PUT and PATCH: both change only the members sent (PUT has required its three members). */
  async update(p: Principal, id: string, dto: PatchedCourseRequest): Promise<V1Course> {
    return this.ds.transaction(async (m) => {
      const row = await this.get(p, id, m, true);
      const set: Partial<Record<keyof V1Course, unknown>> = {};
      if (dto.title !== undefined) set.title = dto.title;
      if (dto.short_description !== undefined) set.shortDescription = dto.short_description;
      if (dto.enforce_sequential_navigation !== undefined) set.enforceSequentialNavigation = dto.enforce_sequential_navigation;
      if (dto.long_description_html !== undefined) set.longDescriptionHtml = dto.long_description_html;
      if (dto.display_course_and_lesson_time !== undefined) set.displayCourseAndLessonTime = dto.display_course_and_lesson_time;
      if (dto.manual_course_time !== undefined) set.manualCourseTime = dto.manual_course_time;
      if (dto.display_manual_course_time !== undefined) set.displayManualCourseTime = dto.display_manual_course_time;
      if (dto.course_and_lesson_time_format !== undefined) set.courseAndLessonTimeFormat = dto.course_and_lesson_time_format;
      // modified_at moves on every update, also when only the labels change.
      await m
        .getRepository(V1Course)
        .createQueryBuilder()
        .update()
        .set({ ...(set as object), updatedAt: () => "date_trunc('milliseconds', now())" })
        .where('id = :id AND organization_id = :org', { id: row.id, org: p.organizationId })
        .execute();
      if (dto.labels !== undefined) await this.setLabels(m, p, row.id, dto.labels);
      return m.getRepository(V1Course).findOneByOrFail({ id: row.id });
    });
  }

  async delete(p: Principal, id: string): Promise<void> {
    const row = await this.get(p, id);
    await this.ds
      .getRepository(V1Course)
      .createQueryBuilder()
      .update()
      .set({ deletedAt: () => 'now()', updatedAt: () => 'now()' })
      .where('id = :id AND organization_id = :org AND deleted_at IS NULL', { id: row.id, org: p.organizationId })
      .execute();
  }

  /** Replace the course's labels by the named ones (missing labels are created). */
  private async setLabels(m: EntityManager, p: Principal, courseId: string, names: string[]) {
    const ids = await this.labels.resolveNames(m, p.organizationId, names);
    await m.query(`DELETE FROM course_labels WHERE course_id = $1 AND NOT (label_id = ANY($2::uuid[]))`, [courseId, ids]);
    if (ids.length) {
      await m.query(
        `INSERT INTO course_labels (course_id, label_id, organization_id)
         SELECT $1, l, $3 FROM unnest($2::uuid[]) WITH ORDINALITY AS t(l, i) ORDER BY i
         ON CONFLICT DO NOTHING`,
        [courseId, ids, p.organizationId],
      );
    }
  }

  // ---- course labels (/v1/courses/{course_id}/labels) ----

  async listLabels(p: Principal, courseId: string, page: V1PageRequest): Promise<[Label[], number]> {
    const course = await this.get(p, courseId);
    const [rows, count] = await Promise.all([
      this.ds.query(
        `SELECT l.id, l.name FROM course_labels cl JOIN labels l ON l.id = cl.label_id
         WHERE cl.course_id = $1 AND cl.organization_id = $2
         ORDER BY cl.created_at, cl.label_id LIMIT $3 OFFSET $4`,
        [course.id, p.organizationId, page.pageSize, page.offset],
      ),
      this.ds.query(`SELECT count(*)::int AS n FROM course_labels WHERE course_id = $1 AND organization_id = $2`, [course.id, p.organizationId]),
    ]);
    return [rows as Label[], count[0].n as number];
  }

  async addLabel(p: Principal, courseId: string, labelRef: unknown): Promise<Label> {
    const course = await this.get(p, courseId);
    const raw = (labelRef as { id?: unknown } | null)?.id;
    if (raw === undefined || raw === null || raw === '') {
      throw new ValidationFailed([{ field: 'label.id', message: 'This field is required.' }], 400);
    }
    const uuid = decodeId('label', raw);
    const label = uuid ? await this.ds.getRepository(Label).findOne({ where: { id: uuid, organizationId: p.organizationId } }) : null;
    if (!label) throw new ValidationFailed([{ field: 'label.id', message: `Invalid pk "${String(raw).slice(0, 64)}" - object does not exist.` }], 400);
    // Attaching an attached label again is idempotent.
    await this.ds.getRepository(CourseLabel).createQueryBuilder().insert().values({ courseId: course.id, labelId: label.id, organizationId: p.organizationId }).orIgnore().execute();
    return label;
  }

  async getLabel(p: Principal, courseId: string, labelId: string): Promise<Label> {
    const course = await this.get(p, courseId);
    const uuid = decodeId('label', labelId);
    const rows: Label[] = uuid
      ? await this.ds.query(
          `SELECT l.id, l.name FROM course_labels cl JOIN labels l ON l.id = cl.label_id
           WHERE cl.course_id = $1 AND cl.label_id = $2 AND cl.organization_id = $3`,
          [course.id, uuid, p.organizationId],
        )
      : [];
    if (!rows.length) throw notFound();
    return rows[0];
  }

  async removeLabel(p: Principal, courseId: string, labelId: string): Promise<void> {
    const label = await this.getLabel(p, courseId, labelId);
    const course = await this.get(p, courseId);
    await this.ds.getRepository(CourseLabel).delete({ courseId: course.id, labelId: label.id, organizationId: p.organizationId });
  }

  // ---- presentation ----

  /** Everything the presenter needs for these courses, in three queries whatever the page size. */
  async extras(p: Principal, courses: V1Course[]): Promise<CourseExtras> {
    const ids = courses.map((c) => c.id);
    const out: CourseExtras = { labels: new Map(), seconds: new Map(), ratings: new Map() };
    if (!ids.length) return out;
    const [labels, seconds, ratings] = await Promise.all([
      this.ds.query(
        `SELECT cl.course_id, l.name FROM course_labels cl JOIN labels l ON l.id = cl.label_id
         WHERE cl.course_id = ANY($1::uuid[]) AND cl.organization_id = $2 ORDER BY cl.created_at, l.name`,
        [ids, p.organizationId],
      ),
      this.ds.query(
        `SELECT course_id, COALESCE(sum(time_seconds), 0)::bigint AS s FROM lessons
         WHERE course_id = ANY($1::uuid[]) AND organization_id = $2 AND deleted_at IS NULL AND NOT is_draft
         GROUP BY course_id`,
        [ids, p.organizationId],
      ),
      // Only ratings on the organization's active scale count (as /v2 average_rating).
      this.ds.query(
        `SELECT r.course_id, avg(r.rating)::float8 AS a FROM course_ratings r JOIN organizations o ON o.id = r.organization_id
         WHERE r.course_id = ANY($1::uuid[]) AND r.organization_id = $2 AND r.scale_max = o.rating_scale
         GROUP BY r.course_id`,
        [ids, p.organizationId],
      ),
    ]);
    for (const r of labels as { course_id: string; name: string }[]) {
      const list = out.labels.get(r.course_id) ?? [];
      list.push(r.name);
      out.labels.set(r.course_id, list);
    }
    for (const r of seconds as { course_id: string; s: string }[]) out.seconds.set(r.course_id, Number(r.s));
    for (const r of ratings as { course_id: string; a: number }[]) out.ratings.set(r.course_id, Math.round(r.a * 100) / 100);
    return out;
  }

  async present(p: Principal, courses: V1Course[]) {
    const x = await this.extras(p, courses);
    return courses.map((c) => presentCourse(c, x));
  }

  async presentOne(p: Principal, course: V1Course) {
    return (await this.present(p, [course]))[0];
  }
}

/** V1Course -> the v1 Course object. Pure: the extras are loaded for the whole page beforehand. */
export function presentCourse(c: V1Course, x: CourseExtras) {
  return {
    id: encodeId('course', c.id),
    title: c.title,
    short_description: c.shortDescription,
    long_description_html: c.longDescriptionHtml,
    enforce_sequential_navigation: c.enforceSequentialNavigation,
    labels: x.labels.get(c.id) ?? [],
    draft_origin_id: c.draftOriginId ? encodeId('course', c.draftOriginId) : null,
    promo_image_url: c.promoImageUrl,
    display_course_and_lesson_time: c.displayCourseAndLessonTime,
    manual_course_time: c.manualCourseTime,
    display_manual_course_time: c.displayManualCourseTime,
    course_and_lesson_time_format: c.courseAndLessonTimeFormat,
    course_time: courseTime(c, x.seconds.get(c.id) ?? 0),
    average_rating: x.ratings.get(c.id) ?? null,
    created_at: c.createdAt.toISOString(),
    modified_at: c.updatedAt.toISOString(),
  };
}
