import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, SelectQueryBuilder } from 'typeorm';
import { scoped } from '../../core/database/scoped';
import type { Principal } from '../../core/auth/principal';
import { FieldProblem, ValidationFailed, notFound } from '../../core/http/api-error';
import { SentNames, sentMembers } from '../../core/http/sent-members';
import { IdType, decodeId } from '../../core/ids/ids';
import type { V1PageRequest } from '../../core/pagination/v1-page';
import type { LessonUpdateRequest } from './dto/lesson.v1.dto';
import { Lesson, LessonType } from './lesson.entity';
import { oneOr404, setColumns, softDelete } from '../../core/database/v1-rows';
import { liveCourse, liveLessonOfLiveCourse } from '../../core/database/fragments';

/** The rows a /v1 lesson body's ids name (resolveRefs). */
interface LessonRefs {
  courseId?: string;
  assetId?: string | null;
  quizId?: string | null;
  webPackageId?: string | null;
}

/** The members of a /v1 lesson update (its ids resolved) written to the row, and their columns. */
const LESSON_COLUMNS: SentNames<LessonUpdateRequest & LessonRefs, Lesson> = {
  courseId: 'courseId',
  title: 'title',
  type: 'type',
  order: 'order',
  description_html: 'descriptionHtml',
  content_html: 'contentHtml',
  quizId: 'quizId',
  assetId: 'contentAssetId',
  webPackageId: 'contentWebPackageId',
  display_fullscreen: 'displayFullscreen',
  optional: 'optional',
  search_keywords: 'searchKeywords',
  time_seconds: 'timeSeconds',
  tooltip_html: 'tooltipHtml',
};

/** A lesson is live when it and its course are neither drafts nor soft-deleted. */
const LIVE = `l.organization_id = :org AND ${liveLessonOfLiveCourse('l')}`;

export const invalidPk = (field: string, value: unknown) => ({ field, message: `Invalid pk "${String(value).slice(0, 64)}" - object does not exist.` }) as FieldProblem;

/**
 * /v1 lessons over the shared lessons table: the same rows and ids (encodeId('lesson')) as /v2.
 * Drafts, soft-deleted lessons and lessons of deleted or draft courses behave as missing.
 */
@Injectable()
export class V1LessonsService {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  private live(m: EntityManager, org: string): SelectQueryBuilder<Lesson> {
    return m.getRepository(Lesson).createQueryBuilder('l').where(LIVE, { org });
  }

  /** `course_id` filter: an unknown, undecodable or other organization's course gives an empty page. */
  async list(p: Principal, page: V1PageRequest, courseId?: string, updatedSince?: Date): Promise<[Lesson[], number]> {
    const qb = this.live(this.ds.manager, p.organizationId);
    if (courseId !== undefined) {
      const uuid = decodeId('course', courseId);
      if (!uuid) return [[], 0];
      qb.andWhere('l.course_id = :course', { course: uuid });
      if (!updatedSince) qb.orderBy('l.order', 'ASC').addOrderBy('l.created_at', 'ASC').addOrderBy('l.id', 'ASC');
    }
    if (updatedSince) {
      // updated_since: changed at or after, ordered by last change (docs/decisions/data-out.md), on lessons_org_live_updated_idx
      qb.andWhere('l.updated_at >= :since', { since: updatedSince }).orderBy('l.updated_at', 'ASC').addOrderBy('l.id', 'ASC');
    } else if (courseId === undefined) {
      qb.orderBy('l.created_at', 'ASC').addOrderBy('l.id', 'ASC');
    }
    return qb.skip(page.offset).take(page.pageSize).getManyAndCount();
  }

  async get(p: Principal, id: string, m: EntityManager = this.ds.manager, lock = false): Promise<Lesson> {
    const uuid = decodeId('lesson', id);
    if (!uuid) throw notFound();
    return oneOr404(this.live(m, p.organizationId).andWhere('l.id = :id', { id: uuid }), lock);
  }

  async create(p: Principal, dto: LessonUpdateRequest): Promise<Lesson> {
    return this.ds.transaction(async (m) => {
      const refs = await this.resolveRefs(m, p, dto);
      const repo = m.getRepository(Lesson);
      return repo.save(
        repo.create({
          organizationId: p.organizationId,
          courseId: refs.courseId!,
          title: dto.title!,
          type: dto.type as LessonType,
          order: dto.order!,
          descriptionHtml: dto.description_html ?? '',
          contentHtml: dto.content_html ?? null,
          contentItems: [],
          quizId: refs.quizId ?? null,
          contentAssetId: refs.assetId ?? null,
          contentWebPackageId: refs.webPackageId ?? null,
          displayFullscreen: dto.display_fullscreen ?? false,
          optional: dto.optional ?? false,
          searchKeywords: dto.search_keywords ?? '',
          timeSeconds: dto.time_seconds ?? null,
          tooltipHtml: dto.tooltip_html ?? '',
          isDraft: false,
          deletedAt: null,
        }),
      );
    });
  }

  /**
   * PUT and PATCH change only the members sent. `?course_id=` scopes the lookup (a lesson of another
   * course is 404); `course_id` in the body moves the lesson to another course of the organization.
   */
  async update(p: Principal, id: string, dto: LessonUpdateRequest, scopeCourseId?: string): Promise<Lesson> {
    return this.ds.transaction(async (m) => {
      const row = await this.get(p, id, m, true);
      if (scopeCourseId !== undefined && decodeId('course', scopeCourseId) !== row.courseId) throw notFound();
      const refs = await this.resolveRefs(m, p, dto);
      await setColumns(m, Lesson, p.organizationId, row.id, sentMembers({ ...dto, ...refs }, LESSON_COLUMNS));
      return m.getRepository(Lesson).findOneByOrFail({ id: row.id, organizationId: p.organizationId });
    });
  }

  async delete(p: Principal, id: string): Promise<void> {
    const row = await this.get(p, id);
    await softDelete(this.ds.manager, Lesson, p.organizationId, row.id, () => "date_trunc('milliseconds', now())");
  }

  /**
   * The referenced ids of a lesson body: `course_id` must be a live course of the organization;
   * asset, quiz and web package ids must be ids of their type (null clears them). All problems
   * are reported together as 400 field errors.
   */
  private async resolveRefs(m: EntityManager, p: Principal, dto: LessonUpdateRequest): Promise<LessonRefs> {
    const problems: FieldProblem[] = [];
    const out: LessonRefs = {};
    if (dto.course_id !== undefined) {
      const uuid = decodeId('course', dto.course_id);
      const rows: unknown[] = uuid ? await scoped(m, p.organizationId).query<unknown[]>(`SELECT 1 FROM courses WHERE id = $1 AND organization_id = $org AND ${liveCourse()}`, [uuid]) : [];
      if (!rows.length) problems.push(invalidPk('course_id', dto.course_id));
      else out.courseId = uuid!;
    }
    const ref = (field: 'content_asset_id' | 'content_quiz_id' | 'content_web_package_id', type: IdType) => {
      const v = dto[field];
      if (v === undefined) return undefined;
      if (v === null) return null;
      const uuid = decodeId(type, v);
      if (!uuid) problems.push(invalidPk(field, v));
      return uuid ?? undefined;
    };
    out.assetId = ref('content_asset_id', 'asset');
    out.quizId = ref('content_quiz_id', 'quiz');
    out.webPackageId = ref('content_web_package_id', 'webPackage');
    // A referenced asset, quiz or web package must be one of this organization's (a quiz a live one).
    if (out.assetId && !(await exists(m, 'assets', out.assetId, p.organizationId))) problems.push(invalidPk('content_asset_id', dto.content_asset_id!));
    if (out.quizId && !(await exists(m, 'quizzes', out.quizId, p.organizationId))) problems.push(invalidPk('content_quiz_id', dto.content_quiz_id!));
    if (out.webPackageId && !(await exists(m, 'web_packages', out.webPackageId, p.organizationId))) {
      problems.push(invalidPk('content_web_package_id', dto.content_web_package_id!));
    }
    if (problems.length) throw new ValidationFailed(problems, 400);
    return out;
  }
}

/** Whether a row of `table` (a fixed table name, never input) with this id belongs to the organization. */
export async function exists(m: EntityManager, table: 'assets' | 'web_packages' | 'quizzes', id: string, organizationId: string): Promise<boolean> {
  const live = table === 'quizzes' ? ' AND deleted_at IS NULL' : '';
  const rows = await scoped(m, organizationId).query<unknown[]>(`SELECT 1 FROM ${table} WHERE id = $1 AND organization_id = $org${live}`, [id]);
  return rows.length > 0;
}
