import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, In, IsNull } from 'typeorm';
import type { Principal } from '../../core/auth/principal';
import { recordEvents } from '../../core/events/outbox';
import { notFound } from '../../core/http/api-error';
import { decodeId, encodeId } from '../../core/ids/ids';
import type { V1PageRequest } from '../../core/pagination/v1-page';
import type { Domain } from '../domains/domain.entity';
import { DomainsService } from '../domains/domains.service';
import type { PathFieldsDto, PathItemCreateDto, PathItemUpdateDto, PublishedPathCreateDto, PublishedPathPatchDto } from './dto/published-path.dto';
import type { EnrollmentCreateDto, EnrollmentUpdateDto } from './dto/enrollment.dto';
import { LearningPath } from './path.entity';
import { PathItem, PathLabel, PublishedPath, PublishedPathEnrollment } from './published-path.entity';
import { fieldError } from '../../core/http/v1-params';
import { loadOffers, OfferRow } from '../commerce/offers';
import { domainBase } from '../domains/domain-url';
import { insertEnrollment, invalidPk, parseEnrollmentCreate, parseEnrollmentUpdate } from '../enrollments/program-enrollments';
import { loadUsers, UserRow } from '../students/user-refs';

export interface PublishedPathView {
  pp: PublishedPath;
  path: LearningPath;
  domainName: string;
  itemCount: number;
  offer: OfferRow | undefined;
  /** with include_searchable_content */
  items?: { id: string; title: string; order: number }[];
  tags?: TagRow[];
}

export interface PathItemView {
  item: PathItem;
  slug: string;
  courseId: string;
  courseTitle: string;
  lessonCount: number;
  requiredLessonCount: number;
}

export interface EnrollmentView {
  e: PublishedPathEnrollment;
  users: Map<string, UserRow>;
  offer: OfferRow | undefined;
}

export interface TagRow {
  id: string;
  name: string;
  slug: string;
}

export interface OverrideRow {
  id: string;
  name: string;
  is_visible: boolean;
}

export interface ListQuery {
  search?: string;
  labelName?: string;
  includeSearchable?: boolean;
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);
const isUniqueViolation = (e: unknown, constraint: string) => (e as { code?: string; constraint?: string })?.code === '23505' && (e as { constraint?: string }).constraint === constraint;

/**
 * Paths and published paths: a published path is a path on a domain with a slug, a default offer,
 * ordered items (published courses of the same domain), labels and enrollments. Every query
 * filters on the caller's organization; another organization's ids behave as missing ones.
 */
@Injectable()
export class PathsService {
  constructor(
    private readonly ds: DataSource,
    private readonly domains: DomainsService,
  ) {}

  // ------------------------------------------------------------------ domains and lookups

  async domain(p: Principal, name: string): Promise<Domain> {
    return this.domains.requireByName(p, name);
  }

  private async publishedPath(m: EntityManager, p: Principal, domain: Domain, id: string): Promise<PublishedPath> {
    const uuid = decodeId('publishedPath', id);
    const pp = uuid
      ? await m.getRepository(PublishedPath).findOne({ where: { id: uuid, organizationId: p.organizationId, domainId: domain.id } })
      : null;
    if (!pp || pp.unpublishedAt) throw notFound();
    return pp;
  }

  private async path(m: EntityManager, p: Principal, uuid: string): Promise<LearningPath> {
    const path = await m.getRepository(LearningPath).findOne({ where: { id: uuid, organizationId: p.organizationId } });
    if (!path || path.deletedAt) throw notFound();
    return path;
  }

  /** Live items (their published course still published) per path, for a page of paths. */
  private async itemCounts(m: EntityManager, organizationId: string, pathIds: string[]): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    if (!pathIds.length) return out;
    const rows: { path_id: string; n: number }[] = await m.query(
      `SELECT pi.path_id, count(*)::int AS n FROM path_items pi
         JOIN published_courses pc ON pc.id = pi.published_course_id AND pc.unpublished_at IS NULL
        WHERE pi.organization_id = $1 AND pi.path_id = ANY($2::uuid[]) GROUP BY pi.path_id`,
      [organizationId, [...new Set(pathIds)]],
    );
    for (const r of rows) out.set(r.path_id, r.n);
    return out;
  }

  private async views(m: EntityManager, p: Principal, domain: Domain, pps: PublishedPath[], paths: Map<string, LearningPath>, searchable = false): Promise<PublishedPathView[]> {
    const pathIds = pps.map((x) => x.pathId);
    const [counts, offers] = await Promise.all([
      this.itemCounts(m, p.organizationId, pathIds),
      loadOffers(m, p.organizationId, 'published_path_id', pps.map((x) => x.id)),
    ]);
    let items = new Map<string, { id: string; title: string; order: number }[]>();
    const tags = new Map<string, TagRow[]>();
    if (searchable && pps.length) {
      const rows: (TagRow & { pp_id: string })[] = await m.query(
        `SELECT pt.published_path_id AS pp_id, tg.id, tg.name, tg.slug FROM path_tags pt JOIN tags tg ON tg.id = pt.tag_id AND tg.organization_id = pt.organization_id
          WHERE pt.organization_id = $1 AND pt.published_path_id = ANY($2::uuid[]) ORDER BY pt.created_at, pt.tag_id`,
        [p.organizationId, pps.map((x) => x.id)],
      );
      for (const r of rows) tags.set(r.pp_id, [...(tags.get(r.pp_id) ?? []), { id: r.id, name: r.name, slug: r.slug }]);
    }
    if (searchable && pathIds.length) {
      const rows: { path_id: string; pc_id: string; title: string; order: number }[] = await m.query(
        `SELECT pi.path_id, pc.id AS pc_id, c.title, pi."order" FROM path_items pi
           JOIN published_courses pc ON pc.id = pi.published_course_id AND pc.unpublished_at IS NULL
           JOIN courses c ON c.id = pc.course_id
          WHERE pi.organization_id = $1 AND pi.path_id = ANY($2::uuid[]) ORDER BY pi.path_id, pi."order", pi.id`,
        [p.organizationId, [...new Set(pathIds)]],
      );
      items = new Map();
      for (const r of rows) {
        const list = items.get(r.path_id) ?? [];
        list.push({ id: encodeId('publishedCourse', r.pc_id), title: r.title, order: r.order });
        items.set(r.path_id, list);
      }
    }
    return pps.map((pp) => ({
      pp,
      path: paths.get(pp.pathId)!,
      domainName: domain.name,
      itemCount: counts.get(pp.pathId) ?? 0,
      offer: offers.get(pp.id),
      items: searchable ? (items.get(pp.pathId) ?? []) : undefined,
      tags: searchable ? (tags.get(pp.id) ?? []) : undefined,
    }));
  }

  private async viewOne(m: EntityManager, p: Principal, domain: Domain, pp: PublishedPath): Promise<PublishedPathView> {
    const path = await this.path(m, p, pp.pathId);
    return (await this.views(m, p, domain, [pp], new Map([[path.id, path]])))[0];
  }

  // ------------------------------------------------------------------ published paths

  async listPublished(p: Principal, domainName: string, page: V1PageRequest, q: ListQuery): Promise<{ rows: PublishedPathView[]; count: number }> {
    const domain = await this.domain(p, domainName);
    const params: unknown[] = [p.organizationId, domain.id];
    const where = [`pp.organization_id = $1`, `pp.domain_id = $2`, `pp.unpublished_at IS NULL`, `pa.deleted_at IS NULL`];
    if (q.labelName !== undefined) {
      params.push(q.labelName);
      where.push(`EXISTS (SELECT 1 FROM path_labels pl JOIN labels l ON l.id = pl.label_id AND l.organization_id = $1
                  WHERE pl.published_path_id = pp.id AND l.name = $${params.length})`);
    }
    let order = `pp.created_at, pp.id`;
    const terms = (q.search ?? '').toLowerCase().split(/\s+/).filter(Boolean).slice(0, 20);
    if (terms.length) {
      // A catalog search: every term must appear in the title, descriptions or keywords (never in
      // the path items); title matches of the whole phrase first, then of any term.
      for (const term of terms) {
        params.push(`%${escapeLike(term)}%`);
        const n = params.length;
        where.push(`(lower(pa.title) LIKE $${n} OR lower(pa.short_description) LIKE $${n} OR lower(pa.long_description_html) LIKE $${n} OR lower(pa.search_keywords) LIKE $${n})`);
      }
      params.push(`%${escapeLike(terms.join(' '))}%`);
      const phrase = params.length;
      params.push(terms.map((t) => `%${escapeLike(t)}%`));
      const any = params.length;
      order = `(lower(pa.title) LIKE $${phrase}) DESC, (lower(pa.title) LIKE ANY($${any}::text[])) DESC, pp.created_at, pp.id`;
    }
    const from = `FROM published_paths pp JOIN paths pa ON pa.id = pp.path_id WHERE ${where.join(' AND ')}`;
    const m = this.ds.manager;
    const [{ n }] = await m.query(`SELECT count(*)::int AS n ${from}`, params.slice(0, terms.length ? params.length - 2 : params.length));
    const ids: { id: string }[] = await m.query(`SELECT pp.id ${from} ORDER BY ${order} LIMIT ${page.pageSize} OFFSET ${page.offset}`, params);
    if (!ids.length) return { rows: [], count: n };
    const pps = await m.getRepository(PublishedPath).findBy({ id: In(ids.map((r) => r.id)) });
    const byId = new Map(pps.map((x) => [x.id, x]));
    const ordered = ids.map((r) => byId.get(r.id)!).filter(Boolean);
    const paths = await m.getRepository(LearningPath).findBy({ id: In(ordered.map((x) => x.pathId)) });
    return { rows: await this.views(m, p, domain, ordered, new Map(paths.map((x) => [x.id, x])), q.includeSearchable), count: n };
  }

  async readPublished(p: Principal, domainName: string, id: string): Promise<PublishedPathView> {
    const domain = await this.domain(p, domainName);
    const m = this.ds.manager;
    return this.viewOne(m, p, domain, await this.publishedPath(m, p, domain, id));
  }

  private async assertSlugFree(m: EntityManager, domain: Domain, slug: string, exceptId?: string) {
    const rows = await m.query(
      `SELECT 1 FROM published_paths WHERE domain_id = $1 AND lower(slug) = lower($2) AND unpublished_at IS NULL AND ($3::uuid IS NULL OR id <> $3::uuid)`,
      [domain.id, slug, exceptId ?? null],
    );
    if (rows.length) throw fieldError('slug', 'A published path with this slug already exists on this domain.');
  }

  /** Creates the path, its published path and a default offer in one transaction. */
  async createPublished(p: Principal, domainName: string, dto: PublishedPathCreateDto): Promise<PublishedPathView> {
    const domain = await this.domain(p, domainName);
    try {
      return await this.ds.transaction(async (m) => {
        await this.assertSlugFree(m, domain, dto.slug);
        const path = await m.getRepository(LearningPath).save(
          m.getRepository(LearningPath).create({
            organizationId: p.organizationId,
            title: dto.path.title,
            shortDescription: dto.path.short_description ?? '',
            longDescriptionHtml: dto.path.long_description_html ?? '',
            headerHtml: dto.path.header_html ?? '',
            courseNameSingular: dto.path.course_name_singular ?? 'Course',
            courseNamePlural: dto.path.course_name_plural ?? 'Courses',
            promoImageUrl: '',
            searchKeywords: '',
            deletedAt: null,
          }),
        );
        const pp = await m.getRepository(PublishedPath).save(
          m.getRepository(PublishedPath).create({
            organizationId: p.organizationId,
            pathId: path.id,
            domainId: domain.id,
            slug: dto.slug,
            hidden: dto.hidden ?? false,
            strictEnforceGroupVisibility: dto.strict_enforce_group_visibility ?? false,
            uniqueProgressPerEnrollment: dto.unique_progress_per_enrollment ?? false,
            unpublishedAt: null,
          }),
        );
        await m.query(`INSERT INTO offers (organization_id, published_path_id, registration_open, price_cents, description) VALUES ($1, $2, true, NULL, $3)`, [
          p.organizationId,
          pp.id,
          path.title.slice(0, 500),
        ]);
        return (await this.views(m, p, domain, [pp], new Map([[path.id, path]])))[0];
      });
    } catch (e) {
      if (isUniqueViolation(e, 'published_paths_domain_slug_uq')) throw fieldError('slug', 'A published path with this slug already exists on this domain.');
      throw e;
    }
  }

  async updatePublished(p: Principal, domainName: string, id: string, dto: PublishedPathPatchDto): Promise<PublishedPathView> {
    const domain = await this.domain(p, domainName);
    try {
      return await this.ds.transaction(async (m) => {
        const pp = await this.publishedPath(m, p, domain, id);
        const patch: Partial<PublishedPath> = {};
        if (dto.slug !== undefined && dto.slug !== pp.slug) {
          await this.assertSlugFree(m, domain, dto.slug, pp.id);
          patch.slug = dto.slug;
        }
        if (dto.hidden !== undefined) patch.hidden = dto.hidden;
        if (dto.strict_enforce_group_visibility !== undefined) patch.strictEnforceGroupVisibility = dto.strict_enforce_group_visibility;
        if (dto.unique_progress_per_enrollment !== undefined) patch.uniqueProgressPerEnrollment = dto.unique_progress_per_enrollment;
        if (Object.keys(patch).length) {
          await m.getRepository(PublishedPath).update({ id: pp.id, organizationId: p.organizationId }, patch);
          Object.assign(pp, patch, { updatedAt: new Date() });
        }
        return this.viewOne(m, p, domain, pp);
      });
    } catch (e) {
      if (isUniqueViolation(e, 'published_paths_domain_slug_uq')) throw fieldError('slug', 'A published path with this slug already exists on this domain.');
      throw e;
    }
  }

  /** Unpublishes the path from the domain; the path itself stays (/v1/paths). */
  async deletePublished(p: Principal, domainName: string, id: string): Promise<void> {
    const domain = await this.domain(p, domainName);
    const pp = await this.publishedPath(this.ds.manager, p, domain, id);
    await this.ds.getRepository(PublishedPath).update({ id: pp.id, organizationId: p.organizationId }, { unpublishedAt: new Date() });
  }

  // ------------------------------------------------------------------ labels

  async listLabels(p: Principal, domainName: string, id: string, page: V1PageRequest) {
    const domain = await this.domain(p, domainName);
    const pp = await this.publishedPath(this.ds.manager, p, domain, id);
    const from = `FROM path_labels pl JOIN labels l ON l.id = pl.label_id AND l.organization_id = pl.organization_id WHERE pl.published_path_id = $1 AND pl.organization_id = $2`;
    const [{ n }] = await this.ds.query(`SELECT count(*)::int AS n ${from}`, [pp.id, p.organizationId]);
    const rows: { id: string; name: string }[] = await this.ds.query(
      `SELECT l.id, l.name ${from} ORDER BY pl.created_at, pl.label_id LIMIT ${page.pageSize} OFFSET ${page.offset}`,
      [pp.id, p.organizationId],
    );
    return { rows, count: n as number };
  }

  async addLabel(p: Principal, domainName: string, id: string, labelId: string): Promise<{ id: string; name: string }> {
    const domain = await this.domain(p, domainName);
    const pp = await this.publishedPath(this.ds.manager, p, domain, id);
    const uuid = decodeId('label', labelId);
    const rows: { id: string; name: string }[] = uuid ? await this.ds.query(`SELECT id, name FROM labels WHERE organization_id = $1 AND id = $2`, [p.organizationId, uuid]) : [];
    if (!rows.length) throw invalidPk('label.id', labelId);
    await this.ds
      .createQueryBuilder()
      .insert()
      .into(PathLabel)
      .values({ publishedPathId: pp.id, labelId: rows[0].id, organizationId: p.organizationId })
      .orIgnore()
      .execute();
    return rows[0];
  }

  async readLabel(p: Principal, domainName: string, id: string, labelId: string): Promise<{ id: string; name: string; ppId: string }> {
    const domain = await this.domain(p, domainName);
    const pp = await this.publishedPath(this.ds.manager, p, domain, id);
    const uuid = decodeId('label', labelId);
    const rows = uuid
      ? await this.ds.query(
          `SELECT l.id, l.name FROM path_labels pl JOIN labels l ON l.id = pl.label_id AND l.organization_id = pl.organization_id
            WHERE pl.published_path_id = $1 AND pl.organization_id = $2 AND pl.label_id = $3`,
          [pp.id, p.organizationId, uuid],
        )
      : [];
    if (!rows.length) throw notFound();
    return { ...rows[0], ppId: pp.id };
  }

  async removeLabel(p: Principal, domainName: string, id: string, labelId: string): Promise<void> {
    const label = await this.readLabel(p, domainName, id, labelId);
    await this.ds.getRepository(PathLabel).delete({ publishedPathId: label.ppId, labelId: label.id, organizationId: p.organizationId });
  }

  // ------------------------------------------------------------------ tags (OpenAPI-only)

  private tagsFrom = `FROM path_tags pt JOIN tags tg ON tg.id = pt.tag_id AND tg.organization_id = pt.organization_id WHERE pt.published_path_id = $1 AND pt.organization_id = $2`;

  async listTags(p: Principal, domainName: string, id: string, page: V1PageRequest) {
    const domain = await this.domain(p, domainName);
    const pp = await this.publishedPath(this.ds.manager, p, domain, id);
    const [{ n }] = await this.ds.query(`SELECT count(*)::int AS n ${this.tagsFrom}`, [pp.id, p.organizationId]);
    const rows: TagRow[] = await this.ds.query(
      `SELECT tg.id, tg.name, tg.slug ${this.tagsFrom} ORDER BY pt.created_at, pt.tag_id LIMIT ${page.pageSize} OFFSET ${page.offset}`,
      [pp.id, p.organizationId],
    );
    return { rows, count: n as number };
  }

  async addTag(p: Principal, domainName: string, id: string, tagId: string): Promise<TagRow> {
    const domain = await this.domain(p, domainName);
    const pp = await this.publishedPath(this.ds.manager, p, domain, id);
    const uuid = decodeId('tag', tagId);
    const rows: TagRow[] = uuid ? await this.ds.query(`SELECT id, name, slug FROM tags WHERE organization_id = $1 AND id = $2`, [p.organizationId, uuid]) : [];
    if (!rows.length) throw invalidPk('tag.id', tagId);
    await this.ds.query(`INSERT INTO path_tags (published_path_id, tag_id, organization_id) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`, [pp.id, rows[0].id, p.organizationId]);
    return rows[0];
  }

  async readTag(p: Principal, domainName: string, id: string, tagId: string): Promise<TagRow & { ppId: string }> {
    const domain = await this.domain(p, domainName);
    const pp = await this.publishedPath(this.ds.manager, p, domain, id);
    const uuid = decodeId('tag', tagId);
    const rows: TagRow[] = uuid ? await this.ds.query(`SELECT tg.id, tg.name, tg.slug ${this.tagsFrom} AND pt.tag_id = $3`, [pp.id, p.organizationId, uuid]) : [];
    if (!rows.length) throw notFound();
    return { ...rows[0], ppId: pp.id };
  }

  async removeTag(p: Principal, domainName: string, id: string, tagId: string): Promise<void> {
    const tag = await this.readTag(p, domainName, id, tagId);
    await this.ds.query(`DELETE FROM path_tags WHERE published_path_id = $1 AND tag_id = $2 AND organization_id = $3`, [tag.ppId, tag.id, p.organizationId]);
  }

  // ------------------------------------------------------------------ group visibility overrides (OpenAPI-only)

  private overridesFrom = `FROM path_visibility_overrides pv JOIN groups g ON g.id = pv.group_id AND g.organization_id = pv.organization_id
                           WHERE pv.published_path_id = $1 AND pv.organization_id = $2`;

  async listOverrides(p: Principal, domainName: string, id: string, page: V1PageRequest) {
    const domain = await this.domain(p, domainName);
    const pp = await this.publishedPath(this.ds.manager, p, domain, id);
    const [{ n }] = await this.ds.query(`SELECT count(*)::int AS n ${this.overridesFrom}`, [pp.id, p.organizationId]);
    const rows: OverrideRow[] = await this.ds.query(
      `SELECT g.id, g.name, pv.is_visible ${this.overridesFrom} ORDER BY pv.created_at, pv.group_id LIMIT ${page.pageSize} OFFSET ${page.offset}`,
      [pp.id, p.organizationId],
    );
    return { rows, count: n as number };
  }

  /** Creates the override, or changes `is_visible` of the existing one for that group. */
  async setOverride(p: Principal, domainName: string, id: string, groupId: string, isVisible: boolean): Promise<OverrideRow> {
    const domain = await this.domain(p, domainName);
    const pp = await this.publishedPath(this.ds.manager, p, domain, id);
    const uuid = decodeId('group', groupId);
    const rows: { id: string; name: string }[] = uuid ? await this.ds.query(`SELECT id, name FROM groups WHERE organization_id = $1 AND id = $2`, [p.organizationId, uuid]) : [];
    if (!rows.length) throw invalidPk('student_group.id', groupId);
    await this.ds.query(
      `INSERT INTO path_visibility_overrides (published_path_id, group_id, organization_id, is_visible) VALUES ($1, $2, $3, $4)
       ON CONFLICT (published_path_id, group_id) DO UPDATE SET is_visible = EXCLUDED.is_visible, updated_at = now()`,
      [pp.id, rows[0].id, p.organizationId, isVisible],
    );
    return { ...rows[0], is_visible: isVisible };
  }

  async readOverride(p: Principal, domainName: string, id: string, groupId: string): Promise<OverrideRow & { ppId: string }> {
    const domain = await this.domain(p, domainName);
    const pp = await this.publishedPath(this.ds.manager, p, domain, id);
    const uuid = decodeId('group', groupId);
    const rows: OverrideRow[] = uuid ? await this.ds.query(`SELECT g.id, g.name, pv.is_visible ${this.overridesFrom} AND pv.group_id = $3`, [pp.id, p.organizationId, uuid]) : [];
    if (!rows.length) throw notFound();
    return { ...rows[0], ppId: pp.id };
  }

  async removeOverride(p: Principal, domainName: string, id: string, groupId: string): Promise<void> {
    const o = await this.readOverride(p, domainName, id, groupId);
    await this.ds.query(`DELETE FROM path_visibility_overrides WHERE published_path_id = $1 AND group_id = $2 AND organization_id = $3`, [o.ppId, o.id, p.organizationId]);
  }

  // ------------------------------------------------------------------ path items

  /** Items of a path with their published course and course stats; one query for the page. */
  private async itemViews(m: EntityManager, organizationId: string, pathId: string, page: V1PageRequest | null, itemId?: string): Promise<{ rows: PathItemView[]; count: number }> {
    const params: unknown[] = [organizationId, pathId];
    let extra = '';
    if (itemId) {
      params.push(itemId);
      extra = ` AND pi.id = $3`;
    }
    const from = `FROM path_items pi JOIN published_courses pc ON pc.id = pi.published_course_id AND pc.unpublished_at IS NULL
                  JOIN courses c ON c.id = pc.course_id
                  WHERE pi.organization_id = $1 AND pi.path_id = $2${extra}`;
    const [{ n }] = await m.query(`SELECT count(*)::int AS n ${from}`, params);
    const limit = page ? ` LIMIT ${page.pageSize} OFFSET ${page.offset}` : '';
    const rows: any[] = await m.query(
      `SELECT pi.*, pc.slug, pc.course_id AS c_id, c.title AS c_title,
              COALESCE(ls.lesson_count, 0)::int AS lesson_count, COALESCE(ls.required_count, 0)::int AS required_count
         ${from.replace('WHERE', `LEFT JOIN LATERAL (
              SELECT count(*) AS lesson_count, count(*) FILTER (WHERE NOT l.optional) AS required_count
                FROM lessons l WHERE l.course_id = c.id AND l.deleted_at IS NULL AND NOT l.is_draft) ls ON true
          WHERE`)}
        ORDER BY pi."order", pi.id${limit}`,
      params,
    );
    return {
      count: n,
      rows: rows.map((r) => ({
        item: Object.assign(new PathItem(), {
          id: r.id,
          organizationId: r.organization_id,
          pathId: r.path_id,
          publishedCourseId: r.published_course_id,
          order: r.order,
          createdAt: r.created_at,
          updatedAt: r.updated_at,
        }),
        slug: r.slug,
        courseId: r.c_id,
        courseTitle: r.c_title,
        lessonCount: r.lesson_count,
        requiredLessonCount: r.required_count,
      })),
    };
  }

  private async itemView(m: EntityManager, organizationId: string, pathId: string, itemId: string): Promise<PathItemView> {
    const uuid = decodeId('pathItem', itemId);
    const found = uuid ? await this.itemViews(m, organizationId, pathId, null, uuid) : { rows: [] };
    if (!found.rows.length) throw notFound();
    return found.rows[0];
  }

  async listItems(p: Principal, domainName: string, id: string, page: V1PageRequest) {
    const domain = await this.domain(p, domainName);
    const pp = await this.publishedPath(this.ds.manager, p, domain, id);
    return this.itemViews(this.ds.manager, p.organizationId, pp.pathId, page);
  }

  async readItem(p: Principal, domainName: string, id: string, itemId: string): Promise<PathItemView> {
    const domain = await this.domain(p, domainName);
    const pp = await this.publishedPath(this.ds.manager, p, domain, id);
    return this.itemView(this.ds.manager, p.organizationId, pp.pathId, itemId);
  }

  private async assertOrderFree(m: EntityManager, pathId: string, order: number, exceptId?: string) {
    const rows = await m.query(`SELECT 1 FROM path_items WHERE path_id = $1 AND "order" = $2 AND ($3::uuid IS NULL OR id <> $3::uuid)`, [pathId, order, exceptId ?? null]);
    if (rows.length) throw fieldError('order', 'A path item with this order already exists in this path.');
  }

  private mapItemConflict(e: unknown): never {
    if (isUniqueViolation(e, 'path_items_path_order_uq')) throw fieldError('order', 'A path item with this order already exists in this path.');
    if (isUniqueViolation(e, 'path_items_path_course_uq')) throw fieldError('published_course.id', 'This published course is already in the path.');
    throw e;
  }

  async createItem(p: Principal, domainName: string, id: string, dto: PathItemCreateDto): Promise<PathItemView> {
    const domain = await this.domain(p, domainName);
    try {
      return await this.ds.transaction(async (m) => {
        const pp = await this.publishedPath(m, p, domain, id);
        // A live published course of the organization on the same domain as the path.
        const pcUuid = decodeId('publishedCourse', dto.published_course.id);
        const pc = pcUuid
          ? await m.query(`SELECT id FROM published_courses WHERE id = $1 AND organization_id = $2 AND domain_id = $3 AND unpublished_at IS NULL`, [
              pcUuid,
              p.organizationId,
              domain.id,
            ])
          : [];
        if (!pc.length) throw invalidPk('published_course.id', dto.published_course.id);
        await this.assertOrderFree(m, pp.pathId, dto.order);
        const dup = await m.query(`SELECT 1 FROM path_items WHERE path_id = $1 AND published_course_id = $2`, [pp.pathId, pcUuid]);
        if (dup.length) throw fieldError('published_course.id', 'This published course is already in the path.');
        const item = await m.getRepository(PathItem).save(
          m.getRepository(PathItem).create({ organizationId: p.organizationId, pathId: pp.pathId, publishedCourseId: pcUuid!, order: dto.order }),
        );
        await m.getRepository(LearningPath).update({ id: pp.pathId, organizationId: p.organizationId }, { updatedAt: new Date() });
        return this.itemView(m, p.organizationId, pp.pathId, encodeId('pathItem', item.id));
      });
    } catch (e) {
      this.mapItemConflict(e);
    }
  }

  async updateItem(p: Principal, domainName: string, id: string, itemId: string, dto: PathItemUpdateDto): Promise<PathItemView> {
    const domain = await this.domain(p, domainName);
    try {
      return await this.ds.transaction(async (m) => {
        const pp = await this.publishedPath(m, p, domain, id);
        const view = await this.itemView(m, p.organizationId, pp.pathId, itemId);
        if (dto.order !== undefined && dto.order !== view.item.order) {
          await this.assertOrderFree(m, pp.pathId, dto.order, view.item.id);
          await m.getRepository(PathItem).update({ id: view.item.id, organizationId: p.organizationId }, { order: dto.order });
          return this.itemView(m, p.organizationId, pp.pathId, itemId);
        }
        return view;
      });
    } catch (e) {
      this.mapItemConflict(e);
    }
  }

  async deleteItem(p: Principal, domainName: string, id: string, itemId: string): Promise<void> {
    const domain = await this.domain(p, domainName);
    const pp = await this.publishedPath(this.ds.manager, p, domain, id);
    const view = await this.itemView(this.ds.manager, p.organizationId, pp.pathId, itemId);
    await this.ds.getRepository(PathItem).delete({ id: view.item.id, organizationId: p.organizationId });
  }

  // ------------------------------------------------------------------ published-path enrollments

  private async enrollment(m: EntityManager, p: Principal, pp: PublishedPath, id: string): Promise<PublishedPathEnrollment> {
    const uuid = decodeId('publishedPathEnrollment', id);
    const e = uuid ? await m.getRepository(PublishedPathEnrollment).findOne({ where: { id: uuid, organizationId: p.organizationId, publishedPathId: pp.id } }) : null;
    if (!e) throw notFound();
    return e;
  }

  private async enrollmentViews(m: EntityManager, p: Principal, pp: PublishedPath, rows: PublishedPathEnrollment[]): Promise<EnrollmentView[]> {
    const [users, offers] = await Promise.all([loadUsers(m, p.organizationId, rows.map((r) => r.userId)), loadOffers(m, p.organizationId, 'published_path_id', [pp.id])]);
    return rows.map((e) => ({ e, users, offer: offers.get(pp.id) }));
  }

  async listEnrollments(p: Principal, domainName: string, id: string, page: V1PageRequest): Promise<{ rows: EnrollmentView[]; count: number }> {
    const domain = await this.domain(p, domainName);
    const m = this.ds.manager;
    const pp = await this.publishedPath(m, p, domain, id);
    const [rows, count] = await m.getRepository(PublishedPathEnrollment).findAndCount({
      where: { organizationId: p.organizationId, publishedPathId: pp.id },
      order: { createdAt: 'ASC', id: 'ASC' },
      take: page.pageSize,
      skip: page.offset,
    });
    return { rows: await this.enrollmentViews(m, p, pp, rows), count };
  }

  async readEnrollment(p: Principal, domainName: string, id: string, enrollmentId: string): Promise<EnrollmentView> {
    const domain = await this.domain(p, domainName);
    const m = this.ds.manager;
    const pp = await this.publishedPath(m, p, domain, id);
    return (await this.enrollmentViews(m, p, pp, [await this.enrollment(m, p, pp, enrollmentId)]))[0];
  }

  /**
   * Enroll a domain member (see insertEnrollment for idempotency): an existing enrollment is returned
   * unchanged and no event is recorded; a new one records PATH_ENROLLMENT in the same transaction.
   */
  async enroll(p: Principal, domainName: string, id: string, dto: EnrollmentCreateDto): Promise<{ view: EnrollmentView; created: boolean }> {
    const domain = await this.domain(p, domainName);
    return this.ds.transaction(async (m) => {
      const pp = await this.publishedPath(m, p, domain, id);
      const input = await parseEnrollmentCreate(m, p.organizationId, dto as any);
      const { id: enrollmentId, created } = await insertEnrollment(m, {
        organizationId: p.organizationId,
        domainId: domain.id,
        table: 'published_path_enrollments',
        owner: { column: 'published_path_id', id: pp.id },
        extra: { column: 'path_id', value: pp.pathId },
        input,
      });
      const e = await m.getRepository(PublishedPathEnrollment).findOneByOrFail({ id: enrollmentId });
      const [view] = await this.enrollmentViews(m, p, pp, [e]);
      if (created) {
        const path = await this.path(m, p, pp.pathId);
        const u = view.users.get(e.userId);
        await recordEvents(m, [
          {
            organizationId: p.organizationId,
            type: 'PATH_ENROLLMENT',
            objects: {
              user: { id: encodeId('student', e.userId), email: u?.email ?? null, first_name: u?.first_name ?? null, last_name: u?.last_name ?? null },
              path: { id: encodeId('path', path.id), published_path_id: encodeId('publishedPath', pp.id), title: path.title, url: pathUrl(domain.name, pp.slug) },
              domain: { id: encodeId('domain', domain.id), name: domain.name },
            },
          },
        ]);
      }
      return { view, created };
    });
  }

  async updateEnrollment(p: Principal, domainName: string, id: string, enrollmentId: string, dto: EnrollmentUpdateDto): Promise<EnrollmentView> {
    const domain = await this.domain(p, domainName);
    const input = parseEnrollmentUpdate(dto);
    return this.ds.transaction(async (m) => {
      const pp = await this.publishedPath(m, p, domain, id);
      const e = await this.enrollment(m, p, pp, enrollmentId);
      const patch: Partial<PublishedPathEnrollment> = {};
      if (input.expiresAt !== undefined) patch.expiresAt = input.expiresAt;
      if (input.active !== undefined) patch.active = input.active;
      if (Object.keys(patch).length) {
        await m.getRepository(PublishedPathEnrollment).update({ id: e.id, organizationId: p.organizationId }, patch);
        Object.assign(e, patch);
      }
      return (await this.enrollmentViews(m, p, pp, [e]))[0];
    });
  }

  // ------------------------------------------------------------------ /v1/paths (organization-wide)

  async listPaths(p: Principal, page: V1PageRequest): Promise<{ rows: { path: LearningPath; itemCount: number }[]; count: number }> {
    const m = this.ds.manager;
    const [rows, count] = await m.getRepository(LearningPath).findAndCount({
      where: { organizationId: p.organizationId, deletedAt: IsNull() },
      order: { createdAt: 'ASC', id: 'ASC' },
      take: page.pageSize,
      skip: page.offset,
    });
    const counts = await this.itemCounts(m, p.organizationId, rows.map((r) => r.id));
    return { rows: rows.map((path) => ({ path, itemCount: counts.get(path.id) ?? 0 })), count };
  }

  private async pathByPublicId(m: EntityManager, p: Principal, id: string): Promise<LearningPath> {
    const uuid = decodeId('path', id);
    if (!uuid) throw notFound();
    return this.path(m, p, uuid);
  }

  async readPath(p: Principal, id: string): Promise<{ path: LearningPath; itemCount: number }> {
    const m = this.ds.manager;
    const path = await this.pathByPublicId(m, p, id);
    return { path, itemCount: (await this.itemCounts(m, p.organizationId, [path.id])).get(path.id) ?? 0 };
  }

  async updatePath(p: Principal, id: string, dto: PathFieldsDto): Promise<{ path: LearningPath; itemCount: number }> {
    const m = this.ds.manager;
    const path = await this.pathByPublicId(m, p, id);
    const patch: Partial<LearningPath> = {};
    if (dto.title !== undefined) patch.title = dto.title;
    if (dto.short_description !== undefined) patch.shortDescription = dto.short_description;
    if (dto.long_description_html !== undefined) patch.longDescriptionHtml = dto.long_description_html;
    if (dto.header_html !== undefined) patch.headerHtml = dto.header_html;
    if (dto.course_name_singular !== undefined) patch.courseNameSingular = dto.course_name_singular;
    if (dto.course_name_plural !== undefined) patch.courseNamePlural = dto.course_name_plural;
    if (Object.keys(patch).length) {
      await m.getRepository(LearningPath).update({ id: path.id, organizationId: p.organizationId }, patch);
      Object.assign(path, patch);
    }
    return { path, itemCount: (await this.itemCounts(m, p.organizationId, [path.id])).get(path.id) ?? 0 };
  }

  /** Soft-deletes the path and unpublishes it from every domain. */
  async deletePath(p: Principal, id: string): Promise<void> {
    await this.ds.transaction(async (m) => {
      const path = await this.pathByPublicId(m, p, id);
      const now = new Date();
      await m.getRepository(LearningPath).update({ id: path.id, organizationId: p.organizationId }, { deletedAt: now });
      await m.query(`UPDATE published_paths SET unpublished_at = $3 WHERE path_id = $1 AND organization_id = $2 AND unpublished_at IS NULL`, [path.id, p.organizationId, now]);
    });
  }

  async listPathItems(p: Principal, id: string, page: V1PageRequest) {
    const m = this.ds.manager;
    const path = await this.pathByPublicId(m, p, id);
    return this.itemViews(m, p.organizationId, path.id, page);
  }

  async readPathItem(p: Principal, id: string, itemId: string): Promise<PathItemView> {
    const m = this.ds.manager;
    const path = await this.pathByPublicId(m, p, id);
    return this.itemView(m, p.organizationId, path.id, itemId);
  }
}

export const pathUrl = (domainName: string, slug: string) => `${domainBase(domainName)}/path/${slug}`;
