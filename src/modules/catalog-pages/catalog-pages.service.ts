import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { Principal } from '../../core/auth/principal';
import { LinkRows, LinkTable, ParentOf } from '../../core/pagination/link-rows';
import { scoped } from '../../core/database/scoped';
import { isUniqueViolation, rowsOf } from '../../core/database/sql';
import { notFound, ValidationFailed } from '../../core/http/api-error';
import { slugOf } from '../../core/http/slug-kit';
import { decodeId, encodeId } from '../../core/ids/ids';
import { v1SinceSql } from '../../core/pagination/updated-since';
import type { V1PageRequest } from '../../core/pagination/v1-page';
import type { Domain } from '../domains/domain.entity';
import { DomainsService } from '../domains/domains.service';
import type { CatalogPageCreateRequest, CatalogPageRequest } from './dto/catalog-page.dto';

import type { CatalogPageRow } from './catalog-pages.store';

export type { CatalogPageRow } from './catalog-pages.store';

const COLUMNS = `cp.id, d.name AS domain_name, cp.page_title, cp.slug, cp.short_description, cp.tile_callout, cp.hidden, cp.strict_enforce_group_visibility,
  cp.is_classic, cp.header_html, cp.tile_sort_method, cp.search_location, cp.search_behavior, cp.item_layout`;
const FROM = `catalog_pages cp JOIN domains d ON d.id = cp.domain_id AND d.organization_id = cp.organization_id`;
const WRITABLE = [
  'page_title',
  'slug',
  'short_description',
  'tile_callout',
  'hidden',
  'strict_enforce_group_visibility',
  'header_html',
  'tile_sort_method',
  'search_location',
  'search_behavior',
  'item_layout',
] as const;
const SLUG_RE = /^[-a-zA-Z0-9_]+$/;

const pageLink = (table: string, column: string, target: string, kind: LinkTable['kind'], columns: string[], member: string, visibility = false): LinkTable => ({
  table,
  parent: 'catalog_page_id',
  column,
  target,
  kind,
  columns,
  member,
  visibility,
});

/**
 * Catalog pages of a domain (/v1/domains/{domain_name}/catalog-pages, CONVENTIONS §17): list (a page
 * of the domain's pages, oldest first, on catalog_pages_domain_created_idx; with `updated_since` by last
 * change on catalog_pages_domain_updated_idx), create, read, PUT and
 * PATCH (both partial, as published), delete (its tags and visibility overrides go with it, by the
 * keys' cascade). A slug is unique in its domain (made from the title when not sent). Tags and
 * student-group visibility overrides are link rows of the page (LinkRows).
 */
@Injectable()
export class CatalogPagesService {
  readonly tags: LinkRows<{ id: string; name: string; slug: string }>;
  readonly overrides: LinkRows<{ id: string; name: string; is_visible: boolean }>;

  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly domains: DomainsService,
  ) {
    const parent: ParentOf = async (p, [domainName, id]) => (await this.get(p, domainName, id)).id;
    this.tags = new LinkRows(ds, parent, pageLink('catalog_page_tags', 'tag_id', 'tags', 'tag', ['id', 'name', 'slug'], 'tag'));
    this.overrides = new LinkRows(ds, parent, pageLink('catalog_page_visibility_overrides', 'group_id', 'groups', 'group', ['id', 'name'], 'student_group', true));
  }

  async list(p: Principal, domainName: string, page: V1PageRequest): Promise<{ rows: CatalogPageRow[]; count: number }> {
    const domain = await this.domains.requireByName(p, domainName);
    const db = scoped(this.ds, p.organizationId);
    // with updated_since: the pages changed since, by last change (catalog_pages_domain_updated_idx)
    const since = v1SinceSql(page, 'cp.updated_at', 2, 'cp.created_at, cp.id');
    const params = [domain.id, ...since.params];
    const [{ n }] = await db.query<{ n: number }[]>(`SELECT count(*)::int AS n FROM catalog_pages cp WHERE cp.organization_id = $org AND cp.domain_id = $1${since.and}`, params);
    const rows = await db.query<CatalogPageRow[]>(
      `SELECT ${COLUMNS} FROM ${FROM} WHERE cp.organization_id = $org AND cp.domain_id = $1${since.and} ORDER BY ${since.order} LIMIT ${page.pageSize} OFFSET ${page.offset}`,
      params,
    );
    return { rows, count: n };
  }

  async get(p: Principal, domainName: string, publicId: string): Promise<CatalogPageRow> {
    const domain = await this.domains.requireByName(p, domainName);
    return this.one(p, domain, publicId);
  }

  async create(p: Principal, domainName: string, dto: CatalogPageCreateRequest): Promise<CatalogPageRow> {
    const domain = await this.domains.requireByName(p, domainName);
    const slug = this.slug(dto.slug) ?? slugOf(dto.page_title!, 255, 'page');
    const cols = ['domain_id', 'slug', 'is_classic'];
    const values: unknown[] = [domain.id, slug, dto.is_classic ?? true];
    for (const k of WRITABLE) {
      if (k !== 'slug' && dto[k] !== undefined) {
        cols.push(k);
        values.push(dto[k]);
      }
    }
    const [row] = await this.write<{ id: string }>(() =>
      scoped(this.ds, p.organizationId).query<unknown>(
        `INSERT INTO catalog_pages (organization_id, ${cols.join(', ')}) VALUES ($org, ${values.map((_, i) => `$${i + 1}`).join(', ')}) RETURNING id`,
        values,
      ),
    );
    return this.one(p, domain, encodeId('catalogPage', row.id));
  }

  async update(p: Principal, domainName: string, publicId: string, dto: CatalogPageRequest): Promise<CatalogPageRow> {
    const domain = await this.domains.requireByName(p, domainName);
    const current = await this.one(p, domain, publicId);
    const sets: string[] = [];
    const params: unknown[] = [current.id];
    for (const k of WRITABLE) {
      if (dto[k] === undefined) continue;
      params.push(k === 'slug' ? this.slug(dto.slug) : dto[k]);
      sets.push(`${k} = $${params.length}`);
    }
    if (sets.length) {
      await this.write(() =>
        scoped(this.ds, p.organizationId).query<unknown>(
          `UPDATE catalog_pages SET ${sets.join(', ')}, updated_at = date_trunc('milliseconds', now()) WHERE id = $1 AND organization_id = $org`,
          params,
        ),
      );
    }
    return this.one(p, domain, publicId);
  }

  /** Deletes the page and what hangs under it (tags, visibility overrides: the keys cascade). */
  async remove(p: Principal, domainName: string, publicId: string): Promise<void> {
    const domain = await this.domains.requireByName(p, domainName);
    const current = await this.one(p, domain, publicId);
    await scoped(this.ds, p.organizationId).query(`DELETE FROM catalog_pages WHERE id = $1 AND organization_id = $org`, [current.id]);
  }

  private async one(p: Principal, domain: Domain, publicId: string): Promise<CatalogPageRow> {
    const uuid = decodeId('catalogPage', publicId);
    const [row] = uuid
      ? await scoped(this.ds, p.organizationId).query<CatalogPageRow[]>(`SELECT ${COLUMNS} FROM ${FROM} WHERE cp.id = $1 AND cp.organization_id = $org AND cp.domain_id = $2`, [uuid, domain.id])
      : [];
    if (!row) throw notFound();
    return row;
  }

  private slug(raw: string | undefined): string | undefined {
    if (raw === undefined) return undefined;
    if (!SLUG_RE.test(raw)) {
      const message = 'Enter a valid "slug" consisting of letters, numbers, underscores or hyphens.';
      throw new ValidationFailed([{ field: 'slug', message }], 400);
    }
    return raw;
  }

  private async write<R>(run: () => Promise<unknown>): Promise<R[]> {
    try {
      return rowsOf<R>(await run());
    } catch (e) {
      if (isUniqueViolation(e)) throw new ValidationFailed([{ field: 'slug', message: 'A catalog page with this slug already exists on this domain.' }], 400);
      throw e;
    }
  }
}

/** CatalogPage (and CatalogPageCreate) of the published /v1 document. */
export function presentCatalogPage(r: CatalogPageRow) {
  return {
    id: encodeId('catalogPage', r.id),
    page_title: r.page_title,
    slug: r.slug,
    short_description: r.short_description,
    tile_callout: r.tile_callout,
    hidden: r.hidden,
    strict_enforce_group_visibility: r.strict_enforce_group_visibility,
    is_classic: r.is_classic,
    url: `https://${r.domain_name}/page/${r.slug}`,
    header_html: r.header_html,
    tile_sort_method: r.tile_sort_method,
    search_location: r.search_location,
    search_behavior: r.search_behavior,
    item_layout: r.item_layout,
  };
}

export const presentPageTag = (t: { id: string; name: string; slug: string }) => ({ tag: { id: encodeId('tag', t.id), name: t.name, slug: t.slug } });
export const presentPageOverride = (o: { id: string; name: string; is_visible: boolean }) => ({ student_group: { id: encodeId('group', o.id), name: o.name }, is_visible: o.is_visible });
