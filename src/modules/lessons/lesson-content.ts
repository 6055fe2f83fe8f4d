import type { EntityManager } from 'typeorm';
import type { ItemOutcome, ValidItem } from '../../core/batch/batch';
import { scoped } from '../../core/database/scoped';
import { decodeId, newUuid } from '../../core/ids/ids';
import { ContentItemRequest, LessonCreateItem, LessonUpdateItem, RATING_CONFIG_KEYS } from './dto/lesson.dto';
import { contentItemsOf, Lesson, StoredContentItem } from './lesson.entity';
import type { WrittenLesson } from './lessons.shape';

/**
 * What a /v2 lesson write sets beside its plain members, checked per item: the payload its type
 * allows (content_html, content_items, quiz_id), its content items, and the quizzes and assets
 * they name (one query each for a batch).
 */

export interface Problem {
  pointer: string;
  detail: string;
}
const problem = (pointer: string, detail: string): Problem => ({ pointer, detail });

const nonBlank = (s: string | null | undefined): s is string => typeof s === 'string' && s.trim() !== '';
const present = (v: unknown) => v !== undefined && v !== null;

/**
 * Build the stored content blocks of a MODULAR lesson from a write payload. The list is
 * authoritative: an item with `id` keeps (and updates) that existing block, one without gets a
 * new id; blocks not named are dropped. Each item carries exactly the payload of its type.
 */
function buildContentItems(items: ContentItemRequest[], raws: any[], existing: StoredContentItem[], knownAssets: ReadonlySet<string>): StoredContentItem[] | Problem {
  const existingIds = new Set(existing.map((e) => e.id));
  const used = new Set<string>();
  let quizzes = 0;
  let ratings = 0;
  const out: StoredContentItem[] = [];
  const PAYLOAD: Record<string, string> = { HTML: 'content_html', VIDEO: 'asset_id', AUDIO: 'asset_id', QUIZ: 'quiz_id', RATING: 'rating' };
  for (let i = 0; i < items.length; i++) {
    const it = items[i];
    const raw = raws[i] ?? {};
    const at = (f: string) => `/attributes/content_items/${i}${f ? `/${f}` : ''}`;
    const wanted = PAYLOAD[it.type];
    for (const f of ['content_html', 'asset_id', 'quiz_id', 'rating']) {
      if (f !== wanted && present(raw[f])) return problem(at(f), `${f} is not valid on a ${it.type} content item.`);
    }
    if (!present(raw[wanted])) return problem(at(wanted), `${wanted} is required on a ${it.type} content item.`);
    if (it.type === 'QUIZ' && ++quizzes > 1) return problem(at('type'), 'A lesson holds at most one QUIZ content item.');
    if (it.type === 'RATING' && ++ratings > 1) return problem(at('type'), 'A lesson holds at most one RATING content item.');
    let id: string;
    if (present(it.id)) {
      const uuid = decodeId('contentItem', it.id);
      if (!uuid || !existingIds.has(uuid) || used.has(uuid)) return problem(at('id'), 'id does not name a content item of this lesson.');
      id = uuid;
    } else {
      id = newUuid();
    }
    used.add(id);
    const stored: StoredContentItem = { id, type: it.type, header: it.header ?? '', order: i, content_html: null, asset_id: null, quiz_id: null };
    if (it.type === 'HTML') stored.content_html = it.content_html!;
    if (it.type === 'VIDEO' || it.type === 'AUDIO') {
      stored.asset_id = decodeId('asset', it.asset_id);
      if (!stored.asset_id) return problem(at('asset_id'), 'asset_id is not a valid asset id.');
      if (!knownAssets.has(stored.asset_id)) return problem(at('asset_id'), 'asset_id does not name an asset of this organization.');
    }
    if (it.type === 'QUIZ') {
      stored.quiz_id = decodeId('quiz', it.quiz_id);
      if (!stored.quiz_id) return problem(at('quiz_id'), 'quiz_id is not a valid quiz id.');
    }
    if (it.type === 'RATING') {
      // an unknown member was refused by validation (RatingConfig is @Closed)
      const r: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(it.rating ?? {})) if (RATING_CONFIG_KEYS.has(k) && v !== undefined && v !== null) r[k] = v;
      r.rating_scale = (it.rating?.rating_scale as number | undefined) ?? 5;
      stored.rating = r;
    }
    out.push(stored);
  }
  return out;
}

/**
 * Items that name a quiz (`quiz_id`, or a QUIZ content item's `quiz_id`) which is not a live quiz
 * of the organization are refused (validation_error at that member, issue 12); one query for the
 * batch. The others are returned.
 */
export async function refuseUnknownQuizzes<T extends ValidItem<{ attributes?: unknown }>>(manager: EntityManager, org: string, items: T[], out: Map<number, ItemOutcome<WrittenLesson>>): Promise<T[]> {
  const named = new Map<number, { uuid: string; pointer: string }[]>();
  for (const v of items) {
    const refs: { uuid: string; pointer: string }[] = [];
    const own = decodeId('quiz', v.raw.attributes?.quiz_id);
    if (own) refs.push({ uuid: own, pointer: '/attributes/quiz_id' });
    const list = v.raw.attributes?.content_items;
    if (Array.isArray(list)) {
      list.forEach((it, i) => {
        const uuid = it && typeof it === 'object' ? decodeId('quiz', (it as any).quiz_id) : null;
        if (uuid) refs.push({ uuid, pointer: `/attributes/content_items/${i}/quiz_id` });
      });
    }
    if (refs.length) named.set(v.index, refs);
  }
  if (!named.size) return items;
  const ids = [...new Set([...named.values()].flat().map((r) => r.uuid))];
  const rows: { id: string }[] = await scoped(manager, org).query(`SELECT id FROM quizzes WHERE organization_id = $org AND id = ANY($1::uuid[]) AND deleted_at IS NULL`, [ids]);
  const live = new Set(rows.map((r) => r.id));
  return items.filter((v) => {
    const bad = (named.get(v.index) ?? []).find((r) => !live.has(r.uuid));
    if (bad) out.set(v.index, { ok: false, code: 'validation_error', detail: 'quiz_id does not name a quiz of this organization.', pointer: bad.pointer });
    return !bad;
  });
}

/** The organization's assets among those the items' content items name: one query for the batch. */
export async function namedAssets(manager: EntityManager, org: string, items: ValidItem<{ attributes?: unknown }>[]): Promise<Set<string>> {
  const ids = new Set<string>();
  for (const v of items) {
    const list = v.raw.attributes?.content_items;
    if (!Array.isArray(list)) continue;
    for (const it of list) {
      const uuid = it && typeof it === 'object' ? decodeId('asset', (it as any).asset_id) : null;
      if (uuid) ids.add(uuid);
    }
  }
  if (!ids.size) return new Set();
  const rows: { id: string }[] = await scoped(manager, org).query(`SELECT id FROM assets WHERE organization_id = $org AND id = ANY($1::uuid[])`, [[...ids]]);
  return new Set(rows.map((r) => r.id));
}

/** Cross-member rules of a create item (the schema's per-type gate). */
export function checkCreate(v: ValidItem<LessonCreateItem>, knownAssets: ReadonlySet<string>): { contentItems: StoredContentItem[]; quizUuid: string | null } | Problem {
  const a = v.item.attributes;
  const raw = v.raw.attributes ?? {};
  if (!nonBlank(a.title)) return problem('/attributes/title', 'title must not be blank.');
  if (a.type !== 'HTML' && present(a.content_html)) return problem('/attributes/content_html', `content_html is not valid on a ${a.type} lesson.`);
  if (a.type !== 'MODULAR' && present(a.content_items)) return problem('/attributes/content_items', `content_items is only valid on a MODULAR lesson.`);
  if (a.type !== 'QUIZ' && present(a.quiz_id)) return problem('/attributes/quiz_id', `quiz_id is only valid on a QUIZ lesson.`);
  if (a.type === 'HTML' && !nonBlank(a.content_html)) return problem('/attributes/content_html', 'content_html is required and must not be empty on an HTML lesson.');
  let quizUuid: string | null = null;
  if (a.type === 'QUIZ') {
    if (!nonBlank(a.quiz_id)) return problem('/attributes/quiz_id', 'quiz_id is required on a QUIZ lesson.');
    quizUuid = decodeId('quiz', a.quiz_id);
    if (!quizUuid) return problem('/attributes/quiz_id', 'quiz_id is not a valid quiz id.');
  }
  let contentItems: StoredContentItem[] = [];
  if (a.type === 'MODULAR' && a.content_items) {
    const built = buildContentItems(a.content_items, raw.content_items, [], knownAssets);
    if (!Array.isArray(built)) return built;
    contentItems = built;
  }
  return { contentItems, quizUuid };
}

/** Apply one update item to a working copy; returns the problem when the item is refused. */
export function applyUpdate(cur: Lesson, v: ValidItem<LessonUpdateItem>, knownAssets: ReadonlySet<string>): Lesson | Problem {
  const a = v.item.attributes;
  const raw = v.raw.attributes ?? {};
  const next = Object.assign(new Lesson(), cur);
  if (a.title !== undefined) {
    if (!nonBlank(a.title)) return problem('/attributes/title', 'title must not be blank.');
    next.title = a.title;
  }
  if (a.description_html !== undefined) next.descriptionHtml = a.description_html;
  if (present(a.content_html)) {
    if (cur.type !== 'HTML') return problem('/attributes/content_html', `content_html is only valid on an HTML lesson; this one is ${cur.type}.`);
    if (!nonBlank(a.content_html)) return problem('/attributes/content_html', 'content_html must not be empty.');
    next.contentHtml = a.content_html;
  }
  if (a.order !== undefined) next.order = a.order;
  if (present(a.content_items)) {
    if (cur.type !== 'MODULAR') return problem('/attributes/content_items', `content_items is only valid on a MODULAR lesson; this one is ${cur.type}.`);
    const built = buildContentItems(a.content_items!, raw.content_items, contentItemsOf(cur), knownAssets);
    if (!Array.isArray(built)) return built;
    next.contentItems = built;
  }
  if (a.quiz_id !== undefined) {
    if (cur.type !== 'QUIZ') return problem('/attributes/quiz_id', `quiz_id is only valid on a QUIZ lesson; this one is ${cur.type}.`);
    const q = decodeId('quiz', a.quiz_id);
    if (!q) return problem('/attributes/quiz_id', 'quiz_id is not a valid quiz id.');
    next.quizId = q;
  }
  return next;
}
