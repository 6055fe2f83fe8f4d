import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, In } from 'typeorm';
import { scoped } from '../../core/database/scoped';
import type { Principal } from '../../core/auth/principal';
import { fieldError } from '../../core/http/v1-rules';
import { sentMembers } from '../../core/http/sent-members';
import { encodeId } from '../../core/ids/ids';
import type { V1PageRequest } from '../../core/pagination/v1-page';
import { insertDefaultOffer, loadOffers, OfferRow } from '../commerce/offers';
import type { Domain } from '../domains/domain.entity';
import type { PublishedPathCreateDto, PublishedPathPatchDto } from './dto/published-path.dto';
import { isUniqueViolation } from '../../core/database/sql';
import { PathLookups } from './path-lookups.service';
import { writePublishedPath } from './published-path-write';
import { LearningPath } from './path.entity';
import { PublishedPath } from './published-path.entity';

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

export interface TagRow {
  id: string;
  name: string;
  slug: string;
}

export interface ListQuery {
  search?: string;
  labelName?: string;
  includeSearchable?: boolean;
  /** updated_since: the published paths changed at or after, by last change (the published path row's updated_at) */
  updatedSince?: Date;
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** A write's failure: another published path of the domain has the slug (400 on slug), or the failure itself. */
function slugConflict(e: unknown): never {
  if (isUniqueViolation(e, 'published_paths_domain_slug_uq')) throw fieldError('slug', 'A published path with this slug already exists on this domain.');
  throw e;
}

/**
 * Published paths: a published path is a path on a domain with a slug, a default offer, ordered
 * items (published courses of the same domain), labels and enrollments (the other sub-resources
 * have their own services beside this one).
 */
@Injectable()
export class PublishedPathsService {
  constructor(
    private readonly ds: DataSource,
    private readonly lookups: PathLookups,
  ) {}

  private async views(m: EntityManager, p: Principal, domain: Domain, pps: PublishedPath[], paths: Map<string, LearningPath>, searchable = false): Promise<PublishedPathView[]> {
    const pathIds = pps.map((x) => x.pathId);
    const [counts, offers] = await Promise.all([
      this.lookups.itemCounts(m, p.organizationId, pathIds),
      loadOffers(
        m,
        p.organizationId,
        'published_path_id',
        pps.map((x) => x.id),
      ),
    ]);
    let items = new Map<string, { id: string; title: string; order: number }[]>();
    const tags = new Map<string, TagRow[]>();
    if (searchable && pps.length) {
      const rows = await scoped(m, p.organizationId).query<(TagRow & { pp_id: string })[]>(
        `SELECT pt.published_path_id AS pp_id, tg.id, tg.name, tg.slug FROM path_tags pt JOIN tags tg ON tg.id = pt.tag_id AND tg.organization_id = pt.organization_id
          WHERE pt.organization_id = $org AND pt.published_path_id = ANY($1::uuid[]) ORDER BY pt.created_at, pt.tag_id`,
        [pps.map((x) => x.id)],
      );
      for (const r of rows) tags.set(r.pp_id, [...(tags.get(r.pp_id) ?? []), { id: r.id, name: r.name, slug: r.slug }]);
    }
    if (searchable && pathIds.length) {
      const rows = await scoped(m, p.organizationId).query<{ path_id: string; pc_id: string; title: string; order: number }[]>(
        `SELECT pi.path_id, pc.id AS pc_id, c.title, pi."order" FROM path_items pi
           JOIN published_courses pc ON pc.id = pi.published_course_id AND pc.unpublished_at IS NULL
           JOIN courses c ON c.id = pc.course_id
          WHERE pi.organization_id = $org AND pi.path_id = ANY($1::uuid[]) ORDER BY pi.path_id, pi."order", pi.id`,
        [[...new Set(pathIds)]],
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
    const path = await this.lookups.path(m, p, pp.pathId);
    return (await this.views(m, p, domain, [pp], new Map([[path.id, path]])))[0];
  }

  // ------------------------------------------------------------------ published paths

  async listPublished(p: Principal, domainName: string, page: V1PageRequest, q: ListQuery): Promise<{ rows: PublishedPathView[]; count: number }> {
    const domain = await this.lookups.domain(p, domainName);
    const params: unknown[] = [domain.id];
    const where = [`pp.organization_id = $org`, `pp.domain_id = $1`, `pp.unpublished_at IS NULL`, `pa.deleted_at IS NULL`];
    if (q.labelName !== undefined) {
      params.push(q.labelName);
      where.push(`EXISTS (SELECT 1 FROM path_labels pl JOIN labels l ON l.id = pl.label_id AND l.organization_id = $org
                  WHERE pl.published_path_id = pp.id AND l.name = $${params.length})`);
    }
    // updated_since: changed at or after, ordered by last change (docs/decisions/data-out.md), on published_paths_domain_updated_idx
    if (q.updatedSince) {
      params.push(q.updatedSince);
      where.push(`pp.updated_at >= $${params.length}`);
    }
    const by = q.updatedSince ? `pp.updated_at, pp.id` : `pp.created_at, pp.id`;
    let order = by;
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
      order = `(lower(pa.title) LIKE $${phrase}) DESC, (lower(pa.title) LIKE ANY($${any}::text[])) DESC, ${by}`;
    }
    const from = `FROM published_paths pp JOIN paths pa ON pa.id = pp.path_id WHERE ${where.join(' AND ')}`;
    const m = this.ds.manager;
    const db = scoped(m, p.organizationId);
    const [{ n }] = await db.query<{ n: number }[]>(`SELECT count(*)::int AS n ${from}`, params.slice(0, terms.length ? params.length - 2 : params.length));
    const ids = await db.query<{ id: string }[]>(`SELECT pp.id ${from} ORDER BY ${order} LIMIT ${page.pageSize} OFFSET ${page.offset}`, params);
    if (!ids.length) return { rows: [], count: n };
    const pps = await m.getRepository(PublishedPath).findBy({ id: In(ids.map((r) => r.id)), organizationId: p.organizationId });
    const byId = new Map(pps.map((x) => [x.id, x]));
    const ordered = ids.map((r) => byId.get(r.id)!).filter(Boolean);
    const paths = await m.getRepository(LearningPath).findBy({ id: In(ordered.map((x) => x.pathId)), organizationId: p.organizationId });
    return { rows: await this.views(m, p, domain, ordered, new Map(paths.map((x) => [x.id, x])), q.includeSearchable), count: n };
  }

  async readPublished(p: Principal, domainName: string, id: string): Promise<PublishedPathView> {
    const domain = await this.lookups.domain(p, domainName);
    const m = this.ds.manager;
    return this.viewOne(m, p, domain, await this.lookups.publishedPath(m, p, domain, id));
  }

  private async assertSlugFree(m: EntityManager, domain: Domain, slug: string, exceptId?: string) {
    const rows = await scoped(m, domain.organizationId).query<unknown[]>(
      `SELECT 1 FROM published_paths WHERE domain_id = $1 AND organization_id = $org AND lower(slug) = lower($2) AND unpublished_at IS NULL AND ($3::uuid IS NULL OR id <> $3::uuid)`,
      [domain.id, slug, exceptId ?? null],
    );
    if (rows.length) throw fieldError('slug', 'A published path with this slug already exists on this domain.');
  }

  /** Creates the path, its published path and a default offer in one transaction. */
  async createPublished(p: Principal, domainName: string, dto: PublishedPathCreateDto): Promise<PublishedPathView> {
    const domain = await this.lookups.domain(p, domainName);
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
        await insertDefaultOffer(m, p.organizationId, 'published_path_id', pp.id, path.title);
        return (await this.views(m, p, domain, [pp], new Map([[path.id, path]])))[0];
      });
    } catch (e) {
      slugConflict(e);
    }
  }

  async updatePublished(p: Principal, domainName: string, id: string, dto: PublishedPathPatchDto): Promise<PublishedPathView> {
    return writePublishedPath(this.ds, this.lookups, p, domainName, id, slugConflict, async (m, pp, domain) => {
      const patch: Partial<PublishedPath> = {};
      if (dto.slug !== undefined && dto.slug !== pp.slug) {
        await this.assertSlugFree(m, domain, dto.slug, pp.id);
        patch.slug = dto.slug;
      }
      Object.assign(
        patch,
        sentMembers<PublishedPathPatchDto, PublishedPath>(dto, {
          hidden: 'hidden',
          strict_enforce_group_visibility: 'strictEnforceGroupVisibility',
          unique_progress_per_enrollment: 'uniqueProgressPerEnrollment',
        }),
      );
      if (Object.keys(patch).length) {
        await m.getRepository(PublishedPath).update({ id: pp.id, organizationId: p.organizationId }, patch);
        Object.assign(pp, patch, { updatedAt: new Date() });
      }
      return this.viewOne(m, p, domain, pp);
    });
  }

  /** Unpublishes the path from the domain; the path itself stays (/v1/paths). */
  async deletePublished(p: Principal, domainName: string, id: string): Promise<void> {
    const domain = await this.lookups.domain(p, domainName);
    const pp = await this.lookups.publishedPath(this.ds.manager, p, domain, id);
    await this.ds.getRepository(PublishedPath).update({ id: pp.id, organizationId: p.organizationId }, { unpublishedAt: new Date() });
  }
}
