import { Injectable } from '@nestjs/common';
import { Type, type Static } from '@sinclair/typebox';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { Principal } from '../../core/auth/principal';
import { scoped } from '../../core/database/scoped';
import { notFound, ValidationFailed } from '../../core/http/api-error';
import { decodeId, encodeId, newUuid } from '../../core/ids/ids';
import { declaredV1, PublicId } from '../../core/openapi/declared-shape';
import { courseRatingScale, setCourseRatingScale } from '../courses/rating-scale';
import { itemsOf, MAX_CONTENT_ITEMS } from './content-items.v1.service';
import type { RatingContentBlockRequest } from './dto/rating-content-block.v1.dto';
import { Lesson, StoredContentItem } from './lesson.entity';
import { V1LessonsService } from './lessons.v1.service';

/** What a rating block holds, in its RATING content item's `rating` (the member /v2 reads and writes too). */
export interface RatingBlockView {
  lessonId: string;
  item: StoredContentItem;
  rating: {
    rating_question: string;
    additional_feedback_question: string;
    include_additional_feedback: boolean;
    rating_scale_low_label: string;
    rating_scale_high_label: string;
  };
  ratingScale: number;
}

const DEFAULT_QUESTION = 'How would you rate this course?';
const TEXT_KEYS = ['rating_question', 'additional_feedback_question', 'rating_scale_low_label', 'rating_scale_high_label'] as const;

/**
 * /v1/lessons/{lesson_id}/rating-content-blocks (CONVENTIONS §17): a rating block is a RATING content
 * item of a MODULAR lesson (lessons.content_items), its question and labels in the item's `rating`
 * (the same member the /v2 lesson writes), addressed by the item's uuid under its own id type (rcb…).
 * Creating one also creates the RATING content item; only one rating per course (any lesson of it);
 * deleting it removes the content item. `rating_scale` (5 or 10) is stored on the course.
 * Each write locks the lesson row, as content item writes do.
 */
@Injectable()
export class RatingContentBlocksV1Service {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly lessons: V1LessonsService,
  ) {}

  async get(p: Principal, lessonId: string, id: string): Promise<RatingBlockView> {
    const lesson = await this.lessons.get(p, lessonId);
    return this.view(this.ds.manager, p, lesson, this.find(lesson, id));
  }

  async create(p: Principal, lessonId: string, dto: RatingContentBlockRequest): Promise<RatingBlockView> {
    const scale = this.scale(dto);
    return this.ds.transaction(async (m) => {
      const lesson = await this.lessons.get(p, lessonId, m, true);
      if (lesson.type !== 'MODULAR') throw new ValidationFailed([{ field: 'non_field_errors', message: 'Rating content blocks can only be added to MODULAR lessons.' }], 400);
      // one rating per course: the course's lessons are locked through their course row's rating check below
      await scoped(m, p.organizationId).query(`SELECT id FROM courses WHERE id = $1 AND organization_id = $org FOR UPDATE`, [lesson.courseId]);
      const [taken] = await scoped(m, p.organizationId).query<unknown[]>(
        `SELECT 1 FROM lessons WHERE organization_id = $org AND course_id = $1 AND deleted_at IS NULL AND content_items @> '[{"type":"RATING"}]'::jsonb LIMIT 1`,
        [lesson.courseId],
      );
      if (taken) throw new ValidationFailed([{ field: 'non_field_errors', message: 'Only one rating is allowed per course.' }], 400);
      const items = itemsOf(lesson);
      if (items.length >= MAX_CONTENT_ITEMS) throw new ValidationFailed([{ field: 'non_field_errors', message: `A lesson has at most ${MAX_CONTENT_ITEMS} content items.` }], 400);
      const rating: Record<string, unknown> = {
        rating_question: DEFAULT_QUESTION,
        additional_feedback_question: '',
        include_additional_feedback: false,
        rating_scale_low_label: '',
        rating_scale_high_label: '',
      };
      this.apply(rating, dto);
      if (scale !== undefined) await setCourseRatingScale(m, p.organizationId, lesson.courseId, scale);
      rating.rating_scale = scale ?? (await courseRatingScale(m, p.organizationId, lesson.courseId));
      const item: StoredContentItem = {
        id: newUuid(),
        type: 'RATING',
        header: '',
        order: items.reduce((max, x) => Math.max(max, x.order + 1), 0),
        content_html: null,
        asset_id: null,
        quiz_id: null,
        rating,
      };
      await this.save(m, lesson, [...items, item]);
      return this.view(m, p, lesson, item);
    });
  }

  /** PUT and PATCH alike (as published, nothing is required): the members sent change. */
  async update(p: Principal, lessonId: string, id: string, dto: RatingContentBlockRequest): Promise<RatingBlockView> {
    return this.ds.transaction(async (m) => {
      const lesson = await this.lessons.get(p, lessonId, m, true);
      const current = this.find(lesson, id);
      const scale = this.scale(dto);
      const rating = { ...(current.rating ?? {}) };
      this.apply(rating, dto);
      if (scale !== undefined) {
        await setCourseRatingScale(m, p.organizationId, lesson.courseId, scale);
        rating.rating_scale = scale;
      }
      const item = { ...current, rating };
      await this.save(
        m,
        lesson,
        itemsOf(lesson).map((x) => (x.id === current.id ? item : x)),
      );
      return this.view(m, p, lesson, item);
    });
  }

  /** Removes the block and the content item that links it to the lesson. */
  async delete(p: Principal, lessonId: string, id: string): Promise<void> {
    await this.ds.transaction(async (m) => {
      const lesson = await this.lessons.get(p, lessonId, m, true);
      const current = this.find(lesson, id);
      await this.save(
        m,
        lesson,
        itemsOf(lesson).filter((x) => x.id !== current.id),
      );
    });
  }

  private scale(dto: RatingContentBlockRequest): 5 | 10 | undefined {
    if (dto.rating_scale === undefined) return undefined;
    if (dto.rating_scale !== 5 && dto.rating_scale !== 10) {
      throw new ValidationFailed(
        [{ field: 'rating_scale', message: `"${dto.rating_scale}" is not a valid choice.`, v1: { field: 'rating_scale', messages: [`"${dto.rating_scale}" is not a valid choice.`] } }],
        400,
      );
    }
    return dto.rating_scale;
  }

  private apply(rating: Record<string, unknown>, dto: RatingContentBlockRequest): void {
    for (const k of TEXT_KEYS) if (dto[k] !== undefined) rating[k] = dto[k];
    if (dto.include_additional_feedback !== undefined) rating.include_additional_feedback = dto.include_additional_feedback;
  }

  private find(lesson: Lesson, id: string): StoredContentItem {
    const uuid = decodeId('ratingContentBlock', id);
    const item = uuid ? itemsOf(lesson).find((x) => x.id === uuid && x.type === 'RATING') : undefined;
    if (!item) throw notFound();
    return item;
  }

  private async view(m: EntityManager, p: Principal, lesson: Lesson, item: StoredContentItem): Promise<RatingBlockView> {
    const r = (item.rating ?? {}) as Record<string, unknown>;
    const s = (k: string, d = '') => (typeof r[k] === 'string' ? (r[k] as string) : d);
    return {
      lessonId: lesson.id,
      item,
      rating: {
        rating_question: s('rating_question', DEFAULT_QUESTION),
        additional_feedback_question: s('additional_feedback_question'),
        include_additional_feedback: r.include_additional_feedback === true,
        rating_scale_low_label: s('rating_scale_low_label'),
        rating_scale_high_label: s('rating_scale_high_label'),
      },
      ratingScale: await courseRatingScale(m, p.organizationId, lesson.courseId),
    };
  }

  private async save(m: EntityManager, lesson: { id: string; organizationId: string }, items: StoredContentItem[]) {
    const sorted = items
      .map((x, i) => ({ x, i }))
      .sort((a, b) => a.x.order - b.x.order || a.i - b.i)
      .map((e) => e.x);
    await scoped(m, lesson.organizationId).query(`UPDATE lessons SET content_items = $2::jsonb, updated_at = date_trunc('milliseconds', now()) WHERE id = $1 AND organization_id = $org`, [
      lesson.id,
      JSON.stringify(sorted),
    ]);
  }
}

/** RatingContentBlock of the published /v1 document, declared once (core/openapi/declared-shape.ts). */
export const RatingBlockSchema = declaredV1(
  'RatingContentBlock',
  Type.Object({
    id: PublicId(),
    content_item_id: PublicId(),
    rating_question: Type.String(),
    additional_feedback_question: Type.String(),
    include_additional_feedback: Type.Boolean(),
    rating_scale_low_label: Type.String(),
    rating_scale_high_label: Type.String(),
    rating_scale: Type.Integer(),
  }),
);

export function presentRatingBlock(v: RatingBlockView): Static<typeof RatingBlockSchema> {
  return {
    id: encodeId('ratingContentBlock', v.item.id),
    content_item_id: encodeId('contentItem', v.item.id),
    ...v.rating,
    rating_scale: v.ratingScale,
  };
}
