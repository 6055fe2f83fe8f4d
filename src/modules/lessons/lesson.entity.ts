import { Column, Entity } from 'typeorm';
import { SoftDeletedOrgEntity } from '../../core/database/org-entity';

export const LESSON_TYPES = ['ASSET', 'HTML', 'QUIZ', 'WEB_PACKAGE', 'VILT', 'IE_EXAM', 'WIDGET', 'MODULAR'] as const;
export type LessonType = (typeof LESSON_TYPES)[number];

/**
 * One block of a MODULAR lesson, as stored in lessons.content_items (jsonb) — the same element
 * shape the /v1 content-items module reads and writes: UUIDs for the block and the referenced
 * asset/quiz, `order` for display order. `rating` carries the /v2 RatingConfig of a RATING block.
 */
export interface StoredContentItem {
  id: string;
  type: string;
  header: string;
  order: number;
  content_html: string | null;
  asset_id: string | null;
  quiz_id: string | null;
  rating?: Record<string, unknown>;
}

/** Tolerant read of the stored blocks (either writer), in display order (by `order`, then position). */
export function contentItemsOf(l: { contentItems: unknown }): StoredContentItem[] {
  const list = Array.isArray(l.contentItems) ? (l.contentItems as Record<string, unknown>[]) : [];
  const str = (v: unknown) => (typeof v === 'string' ? v : null);
  return list
    .map((raw, i) => ({
      i,
      item: {
        ...raw,
        id: String(raw?.id ?? ''),
        type: String(raw?.type ?? ''),
        header: str(raw?.header) ?? '',
        order: typeof raw?.order === 'number' ? (raw.order as number) : i,
        content_html: str(raw?.content_html),
        asset_id: str(raw?.asset_id ?? raw?.content_asset_id),
        quiz_id: str(raw?.quiz_id ?? raw?.content_quiz_id),
      } as StoredContentItem,
    }))
    .filter((x) => x.item.id)
    .sort((a, b) => a.item.order - b.item.order || a.i - b.i)
    .map((x) => x.item);
}

/** A lesson of a course. Drafts and soft-deleted lessons (or lessons of deleted courses) are invisible on /v2. */
@Entity('lessons')
export class Lesson extends SoftDeletedOrgEntity {
  @Column('uuid') courseId: string;
  @Column('text') title: string;
  @Column('text') type: LessonType;
  @Column('int') order: number;
  @Column('text') descriptionHtml: string;
  @Column('text', { nullable: true }) contentHtml: string | null;
  @Column('jsonb') contentItems: StoredContentItem[];
  @Column('uuid', { nullable: true }) quizId: string | null;
  @Column('uuid', { nullable: true }) contentAssetId: string | null;
  @Column('uuid', { nullable: true }) contentWebPackageId: string | null;
  @Column('boolean') displayFullscreen: boolean;
  @Column('boolean') optional: boolean;
  @Column('text') searchKeywords: string;
  @Column('int', { nullable: true }) timeSeconds: number | null;
  @Column('text') tooltipHtml: string;
  @Column('text') externalId: string;
  @Column('boolean') isDraft: boolean;
}
