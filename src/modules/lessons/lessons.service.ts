import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import type { Principal } from '../../core/auth/principal';
import type { ItemOutcome, ValidItem } from '../../core/batch/batch';
import { notFound } from '../../core/http/api-error';
import { decodeId, newUuid } from '../../core/ids/ids';
import { applyKeyset, PageRequest } from '../../core/pagination/cursor-page';
import { CoursesService } from '../courses/courses.service';
import { externalIdOf } from '../courses/external-id';
import { ContentItemRequest, LessonCreateItem, LessonUpdateItem, RATING_CONFIG_KEYS } from './dto/lesson.dto';
import { contentItemsOf, Lesson, LessonType, StoredContentItem } from './lesson.entity';
import { LessonDetailResource, presentLessonDetail } from './lessons.presenter';
import { scoped } from '../../core/database/scoped';
import { entityFromRow } from '../../core/database/entity-rows';

const MAX_INT = 2147483647;
/** Default order step: a lesson created without `order` goes after the course's last lesson (max + 10). */
const ORDER_STEP = 10;

interface Problem {
  pointer: string;
  detail: string;
}
const problem = (pointer: string, detail: string): Problem => ({ pointer, detail });

export interface LessonFilters {
  courseUuid?: string;
  type?: LessonType;
  title?: string;
  updatedSince?: Date;
}

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
      const unknown = Object.keys(raw.rating).find((k) => !RATING_CONFIG_KEYS.has(k));
      if (unknown) return problem(at(`rating/${unknown}`), `unknown rating member "${unknown}".`);
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

  private visible(organizationId: string) {
    return this.lessons
      .createQueryBuilder('l')
      .where('l.organization_id = :org', { org: organizationId })
      .andWhere('l.deleted_at IS NULL AND NOT l.is_draft')
      .andWhere('EXISTS (SELECT 1 FROM courses c WHERE c.id = l.course_id AND c.deleted_at IS NULL)');
  }

  async list(p: Principal, page: PageRequest, f: LessonFilters): Promise<Lesson[]> {
    const qb = this.visible(p.organizationId);
    if (f.courseUuid) qb.andWhere('l.course_id = :cid', { cid: f.courseUuid });
    if (f.type) qb.andWhere('l.type = :type', { type: f.type });
    if (f.title !== undefined) qb.andWhere('lower(l.title) = lower(:title)', { title: f.title });
    if (f.updatedSince) qb.andWhere('l.updated_at >= :since', { since: f.updatedSince });
    return applyKeyset(qb, 'l', page).getMany();
  }

  async get(p: Principal, publicId: string): Promise<Lesson> {
    const id = decodeId('lesson', publicId);
    const lesson = id ? await this.visible(p.organizationId).andWhere('l.id = :id', { id }).getOne() : null;
    if (!lesson) throw notFound('Lesson not found.');
    return lesson;
  }

  /**
   * Items that name a quiz (`quiz_id`, or a QUIZ content item's `quiz_id`) which is not a live quiz
   * of the organization are refused (validation_error at that member, issue 12); one query for the
   * batch. The others are returned.
   */
  private async refuseUnknownQuizzes<T extends ValidItem<{ attributes?: unknown }>>(org: string, items: T[], out: Map<number, ItemOutcome<LessonDetailResource>>): Promise<T[]> {
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
    const rows: { id: string }[] = await scoped(this.lessons.manager, org).query(`SELECT id FROM quizzes WHERE organization_id = $org AND id = ANY($1::uuid[]) AND deleted_at IS NULL`, [ids]);
    const live = new Set(rows.map((r) => r.id));
    return items.filter((v) => {
      const bad = (named.get(v.index) ?? []).find((r) => !live.has(r.uuid));
      if (bad) out.set(v.index, { ok: false, code: 'validation_error', detail: 'quiz_id does not name a quiz of this organization.', pointer: bad.pointer });
      return !bad;
    });
  }

  /** The organization's assets among those the items' content items name: one query for the batch. */
  private async knownAssets(org: string, items: ValidItem<{ attributes?: unknown }>[]): Promise<Set<string>> {
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
    const rows: { id: string }[] = await scoped(this.lessons.manager, org).query(`SELECT id FROM assets WHERE organization_id = $org AND id = ANY($1::uuid[])`, [[...ids]]);
    return new Set(rows.map((r) => r.id));
  }

  /** Cross-member rules of a create item (the schema's per-type gate). */
  private checkCreate(v: ValidItem<LessonCreateItem>, knownAssets: ReadonlySet<string>): { contentItems: StoredContentItem[]; quizUuid: string | null } | Problem {
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

  async createMany(p: Principal, items: ValidItem<LessonCreateItem>[], baseUrl: string): Promise<Map<number, ItemOutcome<LessonDetailResource>>> {
    const org = p.organizationId;
    const out = new Map<number, ItemOutcome<LessonDetailResource>>();
    const prepared: { index: number; courseUuid: string; item: LessonCreateItem; contentItems: StoredContentItem[]; quizUuid: string | null }[] = [];
    const knownAssets = await this.knownAssets(org, items);
    for (const v of await this.refuseUnknownQuizzes(org, items, out)) {
      const checked = this.checkCreate(v, knownAssets);
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
      const live = await this.courses.liveIds(org, prepared.map((x) => x.courseUuid), { manager: m, lock: true });
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
      const rows: any[] = await scoped(m, org).query(
        `INSERT INTO lessons (id, organization_id, course_id, title, type, "order", description_html, content_html, content_items, quiz_id, external_id)
         VALUES ${tuples.join(', ')} RETURNING *`,
        params,
      );
      const byId = new Map(rows.map((r) => [r.id as string, entityFromRow(this.lessons, r)]));
      for (const { index, id } of ids) {
        const lesson = byId.get(id);
        if (lesson) {
          const res = presentLessonDetail(lesson, baseUrl);
          out.set(index, { ok: true, id: res.id, result: res });
        }
      }
    });
    return out;
  }

  /** Apply one update item to a working copy; returns the problem when the item is refused. */
  private applyUpdate(cur: Lesson, v: ValidItem<LessonUpdateItem>, knownAssets: ReadonlySet<string>): Lesson | Problem {
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

  async updateMany(p: Principal, items: ValidItem<LessonUpdateItem>[], baseUrl: string): Promise<Map<number, ItemOutcome<LessonDetailResource>>> {
    const org = p.organizationId;
    const out = new Map<number, ItemOutcome<LessonDetailResource>>();
    const wanted: { v: ValidItem<LessonUpdateItem>; uuid: string }[] = [];
    for (const v of items) {
      const uuid = decodeId('lesson', v.item.id);
      if (!uuid) out.set(v.index, { ok: false, code: 'not_found', detail: 'Lesson not found.', pointer: '/id' });
      else wanted.push({ v, uuid });
    }
    if (!wanted.length) return out;
    const known = new Set(await this.refuseUnknownQuizzes(org, wanted.map((w) => w.v), out));
    wanted.splice(0, wanted.length, ...wanted.filter((w) => known.has(w.v)));
    if (!wanted.length) return out;
    const knownAssets = await this.knownAssets(org, wanted.map((w) => w.v));

    await this.lessons.manager.transaction(async (m) => {
      const rows: any[] = await m.query(
        `SELECT l.* FROM lessons l
          WHERE l.organization_id = $1 AND l.id = ANY($2::uuid[]) AND l.deleted_at IS NULL AND NOT l.is_draft
            AND EXISTS (SELECT 1 FROM courses c WHERE c.id = l.course_id AND c.deleted_at IS NULL)
          FOR NO KEY UPDATE OF l`,
        [org, [...new Set(wanted.map((w) => w.uuid))]],
      );
      const working = new Map(rows.map((r) => [r.id as string, entityFromRow(this.lessons, r)]));
      const succeeded: { index: number; uuid: string }[] = [];
      for (const { v, uuid } of wanted) {
        const cur = working.get(uuid);
        if (!cur) {
          out.set(v.index, { ok: false, code: 'not_found', detail: 'Lesson not found.', pointer: '/id' });
          continue;
        }
        const next = this.applyUpdate(cur, v, knownAssets);
        if ('pointer' in next) {
          out.set(v.index, { ok: false, code: 'validation_error', detail: next.detail, pointer: next.pointer });
          continue;
        }
        working.set(uuid, next);
        succeeded.push({ index: v.index, uuid });
      }
      if (!succeeded.length) return;
      const params: unknown[] = [org];
      const tuples: string[] = [];
      for (const uuid of new Set(succeeded.map((s) => s.uuid))) {
        const l = working.get(uuid)!;
        const b = params.length;
        params.push(uuid, l.title, l.descriptionHtml, l.contentHtml, l.order, JSON.stringify(l.contentItems ?? []), l.quizId);
        tuples.push(`($${b + 1}::uuid, $${b + 2}::text, $${b + 3}::text, $${b + 4}::text, $${b + 5}::int, $${b + 6}::jsonb, $${b + 7}::uuid)`);
      }
      const [updated]: [any[], number] = await m.query(
        `UPDATE lessons AS l SET
            title = v.title, description_html = v.description_html, content_html = v.content_html, "order" = v.ord,
            content_items = v.content_items, quiz_id = v.quiz_id, updated_at = date_trunc('milliseconds', now())
           FROM (VALUES ${tuples.join(', ')}) AS v(id, title, description_html, content_html, ord, content_items, quiz_id)
          WHERE l.id = v.id AND l.organization_id = $1
          RETURNING l.*`,
        params,
      );
      const byId = new Map(updated.map((r) => [r.id as string, presentLessonDetail(entityFromRow(this.lessons, r), baseUrl)]));
      for (const s of succeeded) {
        const res = byId.get(s.uuid);
        if (res) out.set(s.index, { ok: true, id: res.id, result: res });
      }
    });
    return out;
  }
}
