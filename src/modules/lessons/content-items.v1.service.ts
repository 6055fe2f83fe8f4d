import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { Principal } from '../../core/auth/principal';
import { FieldProblem, ValidationFailed, notFound } from '../../core/http/api-error';
import { decodeId, newUuid } from '../../core/ids/ids';
import type { V1PageRequest } from '../../core/pagination/v1-page';
import type { ContentItemUpdateRequest } from './dto/content-item.v1.dto';
import { Lesson, StoredContentItem } from './lesson.entity';
import { V1LessonsService, exists, invalidPk } from './lessons.v1.service';
import { scoped } from '../../core/database/scoped';

/** As the /v2 lesson rules: at most 15 blocks, at most one QUIZ and one RATING block per lesson. */
export const MAX_CONTENT_ITEMS = 15;

export interface ContentItemView {
  lessonId: string;
  item: StoredContentItem;
}

/**
 * Tolerant read of one stored element (the /v2 module writes the same column): members this
 * module does not know (e.g. a /v2 `rating` configuration) are kept when the array is rewritten.
 */
function normalize(raw: Record<string, unknown>, index: number): StoredContentItem {
  const str = (v: unknown) => (typeof v === 'string' ? v : null);
  return {
    ...raw,
    id: String(raw.id ?? ''),
    type: String(raw.type ?? ''),
    header: str(raw.header) ?? '',
    order: typeof raw.order === 'number' ? raw.order : index,
    content_html: str(raw.content_html),
    asset_id: str(raw.asset_id ?? raw.content_asset_id),
    quiz_id: str(raw.quiz_id ?? raw.content_quiz_id),
  };
}

/** A lesson's blocks in display order (by `order`, then by position). */
export function itemsOf(l: Lesson): StoredContentItem[] {
  const list = Array.isArray(l.contentItems) ? l.contentItems : [];
  return list
    .map((raw, i) => ({ item: normalize(raw as unknown as Record<string, unknown>, i), i }))
    .filter((x) => x.item.id)
    .sort((a, b) => a.item.order - b.item.order || a.i - b.i)
    .map((x) => x.item);
}

/**
 * /v1 lesson content items: the blocks of a MODULAR lesson, kept in lessons.content_items (jsonb)
 * so /v2 shows the same blocks. Each write locks the lesson row, so concurrent writes never lose
 * an item. The array is stored sorted by `order`.
 */
@Injectable()
export class V1ContentItemsService {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly lessons: V1LessonsService,
  ) {}

  /**
   * A block has no time of its own: it changes only through a write of its lesson (these writes, the
   * rating blocks', the /v2 lesson writes: each moves `lessons.updated_at`), so its last change is its
   * lesson's. With `updated_since`, the lesson's blocks when the lesson changed at or after it, in
   * their order; none otherwise (docs/decisions/data-out.md).
   */
  async list(p: Principal, lessonId: string, page: V1PageRequest): Promise<{ rows: ContentItemView[]; count: number }> {
    const lesson = await this.lessons.get(p, lessonId);
    const since = page.updatedSince;
    const items = since && lesson.updatedAt < since ? [] : itemsOf(lesson);
    return { rows: items.slice(page.offset, page.offset + page.pageSize).map((item) => ({ lessonId: lesson.id, item })), count: items.length };
  }

  async get(p: Principal, lessonId: string, id: string): Promise<ContentItemView> {
    const lesson = await this.lessons.get(p, lessonId);
    return { lessonId: lesson.id, item: this.find(lesson, id) };
  }

  async create(p: Principal, lessonId: string, dto: ContentItemUpdateRequest): Promise<ContentItemView> {
    return this.ds.transaction(async (m) => {
      const lesson = await this.lessons.get(p, lessonId, m, true);
      if (dto.lesson_id !== undefined && decodeId('lesson', dto.lesson_id) !== lesson.id) {
        throw new ValidationFailed([{ field: 'lesson_id', message: 'Must be the lesson of the URL.' }], 400);
      }
      const refs = await this.refs(m, p, dto);
      const item: StoredContentItem = {
        id: newUuid(),
        type: dto.type!,
        header: dto.header!,
        order: dto.order!,
        content_html: dto.content_html ?? null,
        asset_id: refs.asset_id ?? null,
        quiz_id: refs.quiz_id ?? null,
      };
      const items = [...itemsOf(lesson), item];
      this.check(lesson, items);
      await this.save(m, lesson, items);
      return { lessonId: lesson.id, item };
    });
  }

  /**
   * PUT and PATCH change only the members sent. `lesson_id` naming another MODULAR lesson of the
   * organization moves the block there.
   */
  async update(p: Principal, lessonId: string, id: string, dto: ContentItemUpdateRequest): Promise<ContentItemView> {
    return this.ds.transaction(async (m) => {
      const lesson = await this.lessons.get(p, lessonId, m, true);
      const current = this.find(lesson, id);
      const refs = await this.refs(m, p, dto);
      let target = lesson;
      if (dto.lesson_id !== undefined && decodeId('lesson', dto.lesson_id) !== lesson.id) {
        try {
          target = await this.lessons.get(p, dto.lesson_id, m, true);
        } catch {
          throw new ValidationFailed([invalidPk('lesson_id', dto.lesson_id)], 400);
        }
      }
      const item: StoredContentItem = {
        ...current,
        ...(dto.type !== undefined && { type: dto.type }),
        ...(dto.header !== undefined && { header: dto.header }),
        ...(dto.order !== undefined && { order: dto.order }),
        ...(dto.content_html !== undefined && { content_html: dto.content_html }),
        ...(refs.asset_id !== undefined && { asset_id: refs.asset_id }),
        ...(refs.quiz_id !== undefined && { quiz_id: refs.quiz_id }),
      };
      const others = (l: Lesson) => itemsOf(l).filter((x) => x.id !== current.id);
      if (target.id === lesson.id) {
        const items = [...others(lesson), item];
        this.check(lesson, items);
        await this.save(m, lesson, items);
      } else {
        const items = [...itemsOf(target), item];
        this.check(target, items);
        await this.save(m, lesson, others(lesson));
        await this.save(m, target, items);
      }
      return { lessonId: target.id, item };
    });
  }

  private find(lesson: Lesson, id: string): StoredContentItem {
    const uuid = decodeId('contentItem', id);
    const item = uuid ? itemsOf(lesson).find((x) => x.id === uuid) : undefined;
    if (!item) throw notFound();
    return item;
  }

  private async refs(m: EntityManager, p: Principal, dto: ContentItemUpdateRequest): Promise<{ asset_id?: string; quiz_id?: string }> {
    const problems: FieldProblem[] = [];
    const out: { asset_id?: string; quiz_id?: string } = {};
    if (dto.content_asset_id !== undefined) {
      const uuid = decodeId('asset', dto.content_asset_id);
      if (uuid && (await exists(m, 'assets', uuid, p.organizationId))) out.asset_id = uuid;
      else problems.push(invalidPk('content_asset_id', dto.content_asset_id));
    }
    if (dto.content_quiz_id !== undefined) {
      const uuid = decodeId('quiz', dto.content_quiz_id);
      if (uuid && (await exists(m, 'quizzes', uuid, p.organizationId))) out.quiz_id = uuid;
      else problems.push(invalidPk('content_quiz_id', dto.content_quiz_id));
    }
    if (problems.length) throw new ValidationFailed(problems, 400);
    return out;
  }

  /** Blocks belong to MODULAR lessons; at most 15, one QUIZ and one RATING. */
  private check(lesson: Lesson, items: StoredContentItem[]) {
    if (lesson.type !== 'MODULAR') {
      throw new ValidationFailed([{ field: 'lesson_id', message: 'Content items can only be added to MODULAR lessons.' }], 400);
    }
    if (items.length > MAX_CONTENT_ITEMS) {
      throw new ValidationFailed([{ field: 'non_field_errors', message: `A lesson has at most ${MAX_CONTENT_ITEMS} content items.` }], 400);
    }
    for (const type of ['QUIZ', 'RATING']) {
      if (items.filter((x) => x.type === type).length > 1) {
        throw new ValidationFailed([{ field: 'type', message: `A lesson has at most one ${type} content item.` }], 400);
      }
    }
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
