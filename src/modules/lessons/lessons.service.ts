import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { DataSource, Repository } from 'typeorm';
import type { Principal } from '../../core/auth/principal';
import type { ItemOutcome, ValidItem } from '../../core/batch/batch';
import { decodeId, newUuid } from '../../core/ids/ids';
import { PageRequest } from '../../core/pagination/cursor-page';
import { CoursesService } from '../courses/courses.service';
import { externalIdOf } from '../../core/ids/external-id';
import { ContentItemRequest, LessonCreateItem, LessonUpdateItem } from './dto/lesson.dto';
import { courseRatingScales, setCourseRatingScale } from '../courses/rating-scale';
import type { EntityManager } from 'typeorm';
import { Lesson, LessonType, StoredContentItem } from './lesson.entity';
import { applyUpdate, checkCreate, namedAssets, refuseUnknownQuizzes } from './lesson-content';
import { hasRatingItem, type LessonFields, type WrittenLesson } from './lessons.shape';
import { publicIdsOf } from '../../core/ids/public-ids';
import { isoOfTimestamptz, parseTimestamptz, poolRead, poolRowOr404, TEXT_TIMESTAMPS } from '../../core/database/pool-reads';
import { scoped } from '../../core/database/scoped';
import { entityFromRow } from '../../core/database/entity-rows';
import { liveLesson } from '../../core/database/fragments';
import { LessonListRow, LIST_COLUMNS } from './lessons.store';

const MAX_INT = 2147483647;
/** Default order step: a lesson created without `order` goes after the course's last lesson (max + 10). */
const ORDER_STEP = 10;

/** The rating scale a write's RATING content item names: the course takes it (RatingConfig.rating_scale is the course's). */
const sentScale = (items: ContentItemRequest[] | null | undefined) => items?.find((c) => c.type === 'RATING')?.rating?.rating_scale ?? undefined;

/**
 * The courses' rating scales a /v2 lesson answer shows on its RATING item: first the scales a write's
 * RATING items set on their courses (`sent`: course id -> scale), then one read of every course of a
 * lesson holding a RATING item.
 */
async function ratingScales(m: EntityManager, org: string, lessons: LessonFields[], sent: Map<string, 5 | 10> = new Map()): Promise<Map<string, number>> {
  for (const [course, scale] of sent) await setCourseRatingScale(m, org, course, scale);
  return courseRatingScales(
    m,
    org,
    lessons.filter(hasRatingItem).map((l) => l.courseId),
  );
}

export interface LessonFilters {
  courseUuid?: string;
  type?: LessonType;
  title?: string;
  updatedSince?: Date;
}

/** What a /v2 lesson shows of its row (LessonFields); content_items on the detail only. */

/** Visible lessons: non-draft, non-deleted, of a non-deleted course, of the organization. */
const VISIBLE = `FROM "lessons" l WHERE l.organization_id = $org AND ${liveLesson('l')}
  AND EXISTS (SELECT 1 FROM courses c WHERE c.id = l.course_id AND c.deleted_at IS NULL)`;

/** A keyset page (size + 1 rows: LIMIT is the last parameter, $limit) of visible lessons matching `where`. */
const pageSql = (where: string, limit: number) => `SELECT ${LIST_COLUMNS} ${VISIBLE}${where} ORDER BY l.created_at ASC, l.id ASC LIMIT $${limit}`;

const READS = {
  list: { name: 'lessons_v2_list', sql: pageSql('', 1), types: TEXT_TIMESTAMPS },
  listAfter: { name: 'lessons_v2_list_after', sql: pageSql(' AND (l.created_at, l.id) > ($1::timestamptz, $2::uuid)', 3), types: TEXT_TIMESTAMPS },
  get: { name: 'lessons_v2_get', sql: `SELECT ${LIST_COLUMNS}, l.content_items ${VISIBLE} AND l.id = $1`, types: TEXT_TIMESTAMPS },
} as const;

/**
 * A row of READS (by hand: the columns of LIST_COLUMNS, and content_items when selected), its
 * timestamps as pg's text (TEXT_TIMESTAMPS): the presenters show createdIso / updatedIso (no Date
 * parsed and printed again per row); createdAt / updatedAt are the Dates pg would have given, made
 * when asked (the page's cursor asks the last row's).
 */
class LessonRow implements LessonFields {
  readonly id: string;
  readonly courseId: string;
  readonly title: string;
  readonly type: LessonType;
  readonly order: number;
  readonly descriptionHtml: string;
  readonly contentHtml: string | null;
  readonly quizId: string | null;
  readonly externalId: string;
  readonly contentItems: unknown;
  private readonly created: string;
  private readonly updated: string;
  constructor(r: LessonListRow) {
    this.id = r.id;
    this.created = r.created_at;
    this.updated = r.updated_at;
    this.courseId = r.course_id;
    this.title = r.title;
    this.type = r.type as LessonType;
    this.order = r.order;
    this.descriptionHtml = r.description_html;
    this.contentHtml = r.content_html;
    this.quizId = r.quiz_id;
    this.externalId = r.external_id;
    this.contentItems = r.content_items;
  }
  get createdAt(): Date {
    return parseTimestamptz(this.created);
  }
  get updatedAt(): Date {
    return parseTimestamptz(this.updated);
  }
  get createdIso(): string {
    return isoOfTimestamptz(this.created);
  }
  get updatedIso(): string {
    return isoOfTimestamptz(this.updated);
  }
}
const lessonOfRow = (r: LessonListRow): LessonFields => new LessonRow(r);

/**
 * Lessons on /v2: non-draft, non-deleted lessons of non-deleted courses, always within the caller's
 * organization. Batch writes are set-wise inside one transaction: create = lock the named courses
 * (one SELECT ... FOR UPDATE, so concurrent appends get distinct orders), one max(order) lookup,
 * one multi-row INSERT; update = one SELECT ... FOR UPDATE, one UPDATE ... FROM (VALUES ...).
 */
@Injectable()
export class LessonsService {
  constructor(
    @InjectRepository(Lesson) private readonly lessons: Repository<Lesson>,
    private readonly courses: CoursesService,
  ) {}

  private get ds(): DataSource {
    return this.lessons.manager.connection;
  }

  /**
   * A keyset page of visible lessons in one fixed statement (no query builder, no entity
   * hydration: the rows mapped by hand), on the partial index (organization_id, created_at, id)
   * of live lessons. The unfiltered page (first or after a cursor) is a named statement.
   */
  async list(p: Principal, page: PageRequest, f: LessonFilters): Promise<LessonFields[]> {
    const params: unknown[] = [];
    let where = '';
    if (f.courseUuid) where += ` AND l.course_id = $${params.push(f.courseUuid)}`;
    if (f.type) where += ` AND l.type = $${params.push(f.type)}`;
    if (f.title !== undefined) where += ` AND lower(l.title) = lower($${params.push(f.title)})`;
    if (f.updatedSince) where += ` AND l.updated_at >= $${params.push(f.updatedSince)}`;
    const filtered = where !== '';
    if (page.after) where += ` AND (l.created_at, l.id) > ($${params.push(page.after.t)}::timestamptz, $${params.push(page.after.id)}::uuid)`;
    const read = filtered ? { sql: pageSql(where, params.length + 1), types: TEXT_TIMESTAMPS } : page.after ? READS.listAfter : READS.list;
    params.push(page.size + 1);
    return (await poolRead<LessonListRow>(this.ds, p.organizationId, read, params)).map(lessonOfRow);
  }

  async get(p: Principal, publicId: string): Promise<LessonFields> {
    return lessonOfRow(await poolRowOr404<LessonListRow>(this.ds, p.organizationId, 'lesson', publicId, READS.get, 'Lesson not found.'));
  }

  /** The course's rating scale for a lesson's detail answer, read only when it holds a RATING item. */
  async ratingScaleOf(p: Principal, l: LessonFields): Promise<number | undefined> {
    return hasRatingItem(l) ? (await ratingScales(this.lessons.manager, p.organizationId, [l])).get(l.courseId) : undefined;
  }

  async createMany(p: Principal, items: ValidItem<LessonCreateItem>[]): Promise<Map<number, ItemOutcome<WrittenLesson>>> {
    const org = p.organizationId;
    const out = new Map<number, ItemOutcome<WrittenLesson>>();
    const prepared: { index: number; courseUuid: string; item: LessonCreateItem; contentItems: StoredContentItem[]; quizUuid: string | null }[] = [];
    const knownAssets = await namedAssets(this.lessons.manager, org, items);
    for (const v of await refuseUnknownQuizzes(this.lessons.manager, org, items, out)) {
      const checked = checkCreate(v, knownAssets);
      if ('pointer' in checked) {
        out.set(v.index, { ok: false, code: 'validation_error', detail: checked.detail, pointer: checked.pointer });
        continue;
      }
      const courseUuid = decodeId('course', v.item.attributes.course_id);
      if (!courseUuid) {
        out.set(v.index, { ok: false, code: 'not_found', detail: 'Course not found.', pointer: '/attributes/course_id' });
        continue;
      }
      prepared.push({ index: v.index, courseUuid, item: v.item, ...checked });
    }
    if (!prepared.length) return out;

    await this.lessons.manager.transaction(async (m) => {
      const live = await this.courses.liveIds(
        org,
        prepared.map((x) => x.courseUuid),
        { manager: m, lock: true },
      );
      const ok = prepared.filter((x) => {
        if (live.has(x.courseUuid)) return true;
        out.set(x.index, { ok: false, code: 'not_found', detail: 'Course not found.', pointer: '/attributes/course_id' });
        return false;
      });
      if (!ok.length) return;
      const maxOrder = new Map<string, number>();
      if (ok.some((x) => x.item.attributes.order === undefined || x.item.attributes.order === null)) {
        const rows: { course_id: string; max: number }[] = await scoped(m, org).query(
          `SELECT course_id, max("order") AS max FROM lessons
            WHERE organization_id = $org AND course_id = ANY($1::uuid[]) AND deleted_at IS NULL GROUP BY course_id`,
          [[...new Set(ok.map((x) => x.courseUuid))]],
        );
        for (const r of rows) maxOrder.set(r.course_id, Number(r.max));
      }
      const params: unknown[] = [];
      const tuples: string[] = [];
      const ids: { index: number; id: string }[] = [];
      for (const x of ok) {
        const a = x.item.attributes;
        const running = maxOrder.get(x.courseUuid) ?? 0;
        const order = a.order ?? Math.min(running + ORDER_STEP, MAX_INT);
        maxOrder.set(x.courseUuid, Math.max(running, order));
        const id = newUuid();
        ids.push({ index: x.index, id });
        const values = [
          id,
          x.courseUuid,
          a.title,
          a.type,
          order,
          a.description_html ?? '',
          a.type === 'HTML' ? a.content_html : null,
          JSON.stringify(x.contentItems),
          x.quizUuid,
          externalIdOf('lesson', id, null),
        ];
        const b = params.length;
        params.push(...values);
        // the organization is $org in every row: bound once by scoped()
        tuples.push(`($${b + 1}::uuid, $org::uuid, $${b + 2}::uuid, $${b + 3}, $${b + 4}, $${b + 5}::int, $${b + 6}, $${b + 7}, $${b + 8}::jsonb, $${b + 9}::uuid, $${b + 10})`);
      }
      const rows: Record<string, unknown>[] = await scoped(m, org).query(
        `INSERT INTO lessons (id, organization_id, course_id, title, type, "order", description_html, content_html, content_items, quiz_id, external_id)
         VALUES ${tuples.join(', ')} RETURNING *`,
        params,
      );
      const byId = new Map(rows.map((r) => [r.id as string, entityFromRow(this.lessons, r)]));
      const sent = new Map(ok.flatMap((x) => (sentScale(x.item.attributes.content_items) ? [[x.courseUuid, sentScale(x.item.attributes.content_items)!] as const] : [])));
      const scales = await ratingScales(m, org, [...byId.values()], sent);
      for (const { index, id } of ids) {
        const lesson = byId.get(id);
        if (lesson) {
          out.set(index, { ok: true, id: publicIdsOf('lesson', lesson.id).id, result: { lesson, ratingScale: scales.get(lesson.courseId) } });
        }
      }
    });
    return out;
  }

  async updateMany(p: Principal, items: ValidItem<LessonUpdateItem>[]): Promise<Map<number, ItemOutcome<WrittenLesson>>> {
    const org = p.organizationId;
    const out = new Map<number, ItemOutcome<WrittenLesson>>();
    const wanted: { v: ValidItem<LessonUpdateItem>; uuid: string }[] = [];
    for (const v of items) {
      const uuid = decodeId('lesson', v.item.id);
      if (!uuid) out.set(v.index, { ok: false, code: 'not_found', detail: 'Lesson not found.', pointer: '/id' });
      else wanted.push({ v, uuid });
    }
    if (!wanted.length) return out;
    const known = new Set(
      await refuseUnknownQuizzes(
        this.lessons.manager,
        org,
        wanted.map((w) => w.v),
        out,
      ),
    );
    wanted.splice(0, wanted.length, ...wanted.filter((w) => known.has(w.v)));
    if (!wanted.length) return out;
    const knownAssets = await namedAssets(
      this.lessons.manager,
      org,
      wanted.map((w) => w.v),
    );

    await this.lessons.manager.transaction(async (m) => {
      const rows: Record<string, unknown>[] = await scoped(m, org).query(
        `SELECT l.* FROM lessons l
          WHERE l.organization_id = $org AND l.id = ANY($1::uuid[]) AND ${liveLesson('l')}
            AND EXISTS (SELECT 1 FROM courses c WHERE c.id = l.course_id AND c.deleted_at IS NULL)
          FOR NO KEY UPDATE OF l`,
        [[...new Set(wanted.map((w) => w.uuid))]],
      );
      const working = new Map(rows.map((r) => [r.id as string, entityFromRow(this.lessons, r)]));
      const succeeded: { index: number; uuid: string }[] = [];
      for (const { v, uuid } of wanted) {
        const cur = working.get(uuid);
        if (!cur) {
          out.set(v.index, { ok: false, code: 'not_found', detail: 'Lesson not found.', pointer: '/id' });
          continue;
        }
        const next = applyUpdate(cur, v, knownAssets);
        if ('pointer' in next) {
          out.set(v.index, { ok: false, code: 'validation_error', detail: next.detail, pointer: next.pointer });
          continue;
        }
        working.set(uuid, next);
        succeeded.push({ index: v.index, uuid });
      }
      if (!succeeded.length) return;
      const params: unknown[] = [];
      const tuples: string[] = [];
      for (const uuid of new Set(succeeded.map((s) => s.uuid))) {
        const l = working.get(uuid)!;
        const b = params.length;
        params.push(uuid, l.title, l.descriptionHtml, l.contentHtml, l.order, JSON.stringify(l.contentItems ?? []), l.quizId);
        tuples.push(`($${b + 1}::uuid, $${b + 2}::text, $${b + 3}::text, $${b + 4}::text, $${b + 5}::int, $${b + 6}::jsonb, $${b + 7}::uuid)`);
      }
      const [updated]: [Record<string, unknown>[], number] = await scoped(m, org).query(
        `UPDATE lessons AS l SET
            title = v.title, description_html = v.description_html, content_html = v.content_html, "order" = v.ord,
            content_items = v.content_items, quiz_id = v.quiz_id, updated_at = date_trunc('milliseconds', now())
           FROM (VALUES ${tuples.join(', ')}) AS v(id, title, description_html, content_html, ord, content_items, quiz_id)
          WHERE l.id = v.id AND l.organization_id = $org
          RETURNING l.*`,
        params,
      );
      const sent = new Map(
        succeeded.flatMap((x) => {
          const scale = sentScale(wanted.find((w) => w.v.index === x.index)?.v.item.attributes.content_items);
          return scale ? [[working.get(x.uuid)!.courseId, scale] as const] : [];
        }),
      );
      const lessons = updated.map((r) => entityFromRow(this.lessons, r));
      const scales = await ratingScales(m, org, lessons, sent);
      const byId = new Map(lessons.map((l) => [l.id, l]));
      for (const s of succeeded) {
        const lesson = byId.get(s.uuid);
        if (lesson) out.set(s.index, { ok: true, id: publicIdsOf('lesson', lesson.id).id, result: { lesson, ratingScale: scales.get(lesson.courseId) } });
      }
    });
    return out;
  }
}
