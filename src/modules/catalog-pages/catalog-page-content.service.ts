import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { Principal } from '../../core/auth/principal';
import { Scoped, scoped } from '../../core/database/scoped';
import { rowsOf } from '../../core/database/sql';
import { notFound, ValidationFailed } from '../../core/http/api-error';
import { invalidPk } from '../../core/http/v1-rules';
import { decodeId, encodeId, IdType } from '../../core/ids/ids';
import { v1SinceSql } from '../../core/pagination/updated-since';
import type { V1PageRequest } from '../../core/pagination/v1-page';
import { CatalogPagesService } from './catalog-pages.service';
import type { ComponentBlockPatchRequest, HtmlContentBlockRequest, OrderUpdateRequest, PageContentBlockRequest, PageItemRequest, TileContainerBlockRequest } from './dto/catalog-page-content.dto';

import { BLOCK_COLUMNS, type BlockRow } from './catalog-page-blocks.store';
import { ITEM_COLUMNS, type ItemRow } from './catalog-page-items.store';

export type { BlockRow } from './catalog-page-blocks.store';
export type { ItemRow } from './catalog-page-items.store';

/** Which typed block a content block of each type is (its id under that kind). */
export const blockKind = (type: string): 'html' | 'tile' | 'component' => (type === 'TILE_SECTION' ? 'tile' : type === 'IN_PROGRESS_COURSES' ? 'component' : 'html');

/** The four things an item can name: request member, id type, table and item type. */
const TARGETS = [
  { member: 'item_catalog_page_id', kind: 'catalogPage', table: 'catalog_pages', type: 'CATALOG_PAGE' },
  { member: 'item_published_course_id', kind: 'publishedCourse', table: 'published_courses', type: 'PUBLISHED_COURSE' },
  { member: 'item_published_path_id', kind: 'publishedPath', table: 'published_paths', type: 'PUBLISHED_PATH' },
  { member: 'item_plan_id', kind: 'plan', table: 'plans', type: 'PLAN' },
] as const satisfies readonly { member: keyof PageItemRequest; kind: IdType; table: string; type: string }[];

/** An ordered list: its table and the condition that names it ($1 is the list's parent). */
interface OrderedList {
  table: 'catalog_page_blocks' | 'catalog_page_items';
  where: string;
}
const BLOCKS: OrderedList = { table: 'catalog_page_blocks', where: 'organization_id = $org AND catalog_page_id = $1' };
const CLASSIC: OrderedList = { table: 'catalog_page_items', where: 'organization_id = $org AND catalog_page_id = $1 AND block_id IS NULL' };
const TILE: OrderedList = { table: 'catalog_page_items', where: 'organization_id = $org AND block_id = $1' };

/**
 * What a catalog page holds (CONVENTIONS §17): a classic page's items; a builder page's content
 * blocks (HTML, HERO and ANNOUNCEMENT_BAR are HTML blocks, TILE_SECTION a tile container,
 * IN_PROGRESS_COURSES a component block) with their typed members; a tile container's items. Every
 * list keeps a dense order 1..n: an item or block goes in at its `order` (the end when absent or
 * beyond it), the others move down; a move shifts the ones between; a delete closes the gap. Each
 * write locks the page row, so concurrent writes of one page keep the order dense.
 */
@Injectable()
export class CatalogPageContentService {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly pages: CatalogPagesService,
  ) {}

  // ---- classic page items

  async listClassic(p: Principal, domain: string, pageId: string, page: V1PageRequest): Promise<{ rows: ItemRow[]; count: number }> {
    const pg = await this.page(p, domain, pageId);
    return this.listOf(p, CLASSIC, pg.id, page, ITEM_COLUMNS);
  }

  async addClassic(p: Principal, domain: string, pageId: string, dto: PageItemRequest): Promise<ItemRow> {
    return this.write(p, domain, pageId, async (db, m, pg) => {
      if (!pg.is_classic) throw new ValidationFailed([{ field: 'non_field_errors', message: 'Classic page items belong to classic catalog pages; this is a builder page.' }], 400);
      return this.insertItem(db, m, pg.id, null, CLASSIC, pg.id, dto);
    });
  }

  async getClassic(p: Principal, domain: string, pageId: string, id: string): Promise<ItemRow> {
    const pg = await this.page(p, domain, pageId);
    return this.one<ItemRow>(p, CLASSIC, pg.id, 'catalogPageItem', id, ITEM_COLUMNS);
  }

  async orderClassic(p: Principal, domain: string, pageId: string, id: string, dto: OrderUpdateRequest): Promise<ItemRow> {
    return this.write(p, domain, pageId, (db, _m, pg) => this.move<ItemRow>(db, CLASSIC, pg.id, 'catalogPageItem', id, dto.order, ITEM_COLUMNS));
  }

  async removeClassic(p: Principal, domain: string, pageId: string, id: string): Promise<void> {
    await this.write(p, domain, pageId, (db, _m, pg) => this.delete(db, CLASSIC, pg.id, 'catalogPageItem', id));
  }

  // ---- content blocks of a builder page

  async listBlocks(p: Principal, domain: string, pageId: string, page: V1PageRequest): Promise<{ rows: BlockRow[]; count: number }> {
    const pg = await this.page(p, domain, pageId);
    return this.listOf(p, BLOCKS, pg.id, page, BLOCK_COLUMNS);
  }

  async addBlock(p: Principal, domain: string, pageId: string, dto: PageContentBlockRequest): Promise<BlockRow> {
    return this.write(p, domain, pageId, async (db, _m, pg) => {
      if (pg.is_classic) throw new ValidationFailed([{ field: 'non_field_errors', message: 'Content blocks belong to builder catalog pages; this is a classic page.' }], 400);
      const order = await this.openSlot(db, BLOCKS, pg.id, dto.order);
      const component = dto.type === 'IN_PROGRESS_COURSES' ? 'in_progress_content' : null;
      const [row] = rowsOf<BlockRow>(
        await db.query<unknown>(`INSERT INTO catalog_page_blocks (organization_id, catalog_page_id, "order", type, component) VALUES ($org, $1, $2, $3, $4) RETURNING ${BLOCK_COLUMNS}`, [
          pg.id,
          order,
          dto.type,
          component,
        ]),
      );
      return row;
    });
  }

  async getBlock(p: Principal, domain: string, pageId: string, id: string): Promise<BlockRow> {
    const pg = await this.page(p, domain, pageId);
    return this.one<BlockRow>(p, BLOCKS, pg.id, 'catalogPageBlock', id, BLOCK_COLUMNS);
  }

  async orderBlock(p: Principal, domain: string, pageId: string, id: string, dto: OrderUpdateRequest): Promise<BlockRow> {
    return this.write(p, domain, pageId, (db, _m, pg) => this.move<BlockRow>(db, BLOCKS, pg.id, 'catalogPageBlock', id, dto.order, BLOCK_COLUMNS));
  }

  /** Deletes the block and, for a tile container, its items (the keys cascade). */
  async removeBlock(p: Principal, domain: string, pageId: string, id: string): Promise<void> {
    await this.write(p, domain, pageId, (db, _m, pg) => this.delete(db, BLOCKS, pg.id, 'catalogPageBlock', id));
  }

  // ---- the typed blocks (their id is the content block's, under the kind's id type)

  async getTyped(p: Principal, domain: string, pageId: string, id: string, kind: 'html' | 'tile' | 'component'): Promise<BlockRow> {
    const pg = await this.page(p, domain, pageId);
    return this.typed(scoped(this.ds, p.organizationId), pg.id, id, kind);
  }

  getHtml = (p: Principal, d: string, pg: string, id: string) => this.getTyped(p, d, pg, id, 'html');
  getTile = (p: Principal, d: string, pg: string, id: string) => this.getTyped(p, d, pg, id, 'tile');
  getComponent = (p: Principal, d: string, pg: string, id: string) => this.getTyped(p, d, pg, id, 'component');

  setHtml = (p: Principal, d: string, pg: string, id: string, dto: HtmlContentBlockRequest) => this.setTyped(p, d, pg, id, 'html', dto);
  setTile = (p: Principal, d: string, pg: string, id: string, dto: TileContainerBlockRequest) => this.setTyped(p, d, pg, id, 'tile', dto);
  setComponent = (p: Principal, d: string, pg: string, id: string, dto: ComponentBlockPatchRequest) => this.setTyped(p, d, pg, id, 'component', dto);

  private async setTyped(p: Principal, domain: string, pageId: string, id: string, kind: 'html' | 'tile' | 'component', dto: object): Promise<BlockRow> {
    return this.write(p, domain, pageId, async (db, _m, pg) => {
      const block = await this.typed(db, pg.id, id, kind);
      const sets: string[] = [];
      const params: unknown[] = [block.id];
      for (const [k, v] of Object.entries(dto)) {
        if (v === undefined) continue;
        params.push(v);
        sets.push(`${k} = $${params.length}`);
      }
      if (!sets.length) return block;
      const [row] = rowsOf<BlockRow>(
        await db.query<unknown>(
          `UPDATE catalog_page_blocks SET ${sets.join(', ')}, updated_at = date_trunc('milliseconds', now()) WHERE id = $1 AND organization_id = $org RETURNING ${BLOCK_COLUMNS}`,
          params,
        ),
      );
      return row;
    });
  }

  // ---- tile container items

  async listTileItems(p: Principal, domain: string, pageId: string, tileId: string, page: V1PageRequest): Promise<{ rows: ItemRow[]; count: number }> {
    const pg = await this.page(p, domain, pageId);
    const tile = await this.typed(scoped(this.ds, p.organizationId), pg.id, tileId, 'tile');
    return this.listOf(p, TILE, tile.id, page, ITEM_COLUMNS);
  }

  async addTileItem(p: Principal, domain: string, pageId: string, tileId: string, dto: PageItemRequest): Promise<ItemRow> {
    return this.write(p, domain, pageId, async (db, m, pg) => {
      const tile = await this.typed(db, pg.id, tileId, 'tile');
      return this.insertItem(db, m, pg.id, tile.id, TILE, tile.id, dto);
    });
  }

  async getTileItem(p: Principal, domain: string, pageId: string, tileId: string, id: string): Promise<ItemRow> {
    const pg = await this.page(p, domain, pageId);
    const tile = await this.typed(scoped(this.ds, p.organizationId), pg.id, tileId, 'tile');
    return this.one<ItemRow>(p, TILE, tile.id, 'tileContainerItem', id, ITEM_COLUMNS);
  }

  async orderTileItem(p: Principal, domain: string, pageId: string, tileId: string, id: string, dto: OrderUpdateRequest): Promise<ItemRow> {
    return this.write(p, domain, pageId, async (db, _m, pg) => {
      const tile = await this.typed(db, pg.id, tileId, 'tile');
      return this.move<ItemRow>(db, TILE, tile.id, 'tileContainerItem', id, dto.order, ITEM_COLUMNS);
    });
  }

  async removeTileItem(p: Principal, domain: string, pageId: string, tileId: string, id: string): Promise<void> {
    await this.write(p, domain, pageId, async (db, _m, pg) => {
      const tile = await this.typed(db, pg.id, tileId, 'tile');
      await this.delete(db, TILE, tile.id, 'tileContainerItem', id);
    });
  }

  // ---- the rules

  private page(p: Principal, domain: string, pageId: string) {
    return this.pages.get(p, domain, pageId);
  }

  /** The page (404 first), then `fn` in a transaction holding the page row's lock. */
  private async write<T>(p: Principal, domain: string, pageId: string, fn: (db: Scoped, m: EntityManager, pg: { id: string; is_classic: boolean; domain_id: string }) => Promise<T>): Promise<T> {
    const pg = await this.page(p, domain, pageId);
    return scoped(this.ds, p.organizationId).transaction(async (db, m) => {
      const [locked] = await db.query<{ id: string; is_classic: boolean; domain_id: string }[]>(
        `SELECT id, is_classic, domain_id FROM catalog_pages WHERE id = $1 AND organization_id = $org FOR UPDATE`,
        [pg.id],
      );
      if (!locked) throw notFound();
      return fn(db, m, locked);
    });
  }

  /**
   * A page of the list in its order; with `updated_since`, the rows changed since (a row moved by a
   * neighbour's insert, move or delete changes too: its `order` does), by last change, on the
   * list's `(organization_id, <parent>, updated_at, id)` index.
   */
  private async listOf<R>(p: Principal, list: OrderedList, parent: string, page: V1PageRequest, columns: string): Promise<{ rows: R[]; count: number }> {
    const db = scoped(this.ds, p.organizationId);
    const since = v1SinceSql(page, 'updated_at', 2, '"order", id');
    const params = [parent, ...since.params];
    const [{ n }] = await db.query<{ n: number }[]>(`SELECT count(*)::int AS n FROM ${list.table} WHERE ${list.where}${since.and}`, params);
    const rows = await db.query<R[]>(`SELECT ${columns} FROM ${list.table} WHERE ${list.where}${since.and} ORDER BY ${since.order} LIMIT ${page.pageSize} OFFSET ${page.offset}`, params);
    return { rows, count: n };
  }

  private async one<R>(p: Principal, list: OrderedList, parent: string, kind: IdType, publicId: string, columns: string, db: Scoped = scoped(this.ds, p.organizationId)): Promise<R> {
    const uuid = decodeId(kind, publicId);
    const [row] = uuid ? await db.query<R[]>(`SELECT ${columns} FROM ${list.table} WHERE ${list.where} AND id = $2`, [parent, uuid]) : [];
    if (!row) throw notFound();
    return row;
  }

  private async typed(db: Scoped, pageId: string, publicId: string, kind: 'html' | 'tile' | 'component'): Promise<BlockRow> {
    const type: IdType = kind === 'html' ? 'htmlContentBlock' : kind === 'tile' ? 'tileContainerBlock' : 'componentContentBlock';
    const uuid = decodeId(type, publicId);
    const [row] = uuid ? await db.query<BlockRow[]>(`SELECT ${BLOCK_COLUMNS} FROM catalog_page_blocks WHERE ${BLOCKS.where} AND id = $2`, [pageId, uuid]) : [];
    if (!row || blockKind(row.type) !== kind) throw notFound();
    return row;
  }

  /** Make room at `wanted` (1..n+1; the end when absent or beyond): the rows from there move down one. */
  private async openSlot(db: Scoped, list: OrderedList, parent: string, wanted: number | undefined): Promise<number> {
    const [{ n }] = await db.query<{ n: number }[]>(`SELECT count(*)::int AS n FROM ${list.table} WHERE ${list.where}`, [parent]);
    const at = wanted === undefined ? n + 1 : Math.min(wanted, n + 1);
    if (at <= n) await db.query(`UPDATE ${list.table} SET "order" = "order" + 1, updated_at = date_trunc('milliseconds', now()) WHERE ${list.where} AND "order" >= $2`, [parent, at]);
    return at;
  }

  private async move<R extends { id: string; order: number }>(db: Scoped, list: OrderedList, parent: string, kind: IdType, publicId: string, wanted: number | undefined, columns: string): Promise<R> {
    const row = await this.one<R>({ organizationId: db.organizationId } as Principal, list, parent, kind, publicId, columns, db);
    if (wanted === undefined) return row;
    const [{ n }] = await db.query<{ n: number }[]>(`SELECT count(*)::int AS n FROM ${list.table} WHERE ${list.where}`, [parent]);
    const to = Math.min(wanted, n);
    if (to < row.order)
      await db.query(`UPDATE ${list.table} SET "order" = "order" + 1, updated_at = date_trunc('milliseconds', now()) WHERE ${list.where} AND "order" >= $2 AND "order" < $3`, [parent, to, row.order]);
    if (to > row.order)
      await db.query(`UPDATE ${list.table} SET "order" = "order" - 1, updated_at = date_trunc('milliseconds', now()) WHERE ${list.where} AND "order" > $2 AND "order" <= $3`, [parent, row.order, to]);
    const [moved] = rowsOf<R>(
      await db.query<unknown>(`UPDATE ${list.table} SET "order" = $2, updated_at = date_trunc('milliseconds', now()) WHERE ${list.where} AND id = $3 RETURNING ${columns}`, [parent, to, row.id]),
    );
    return moved;
  }

  private async delete(db: Scoped, list: OrderedList, parent: string, kind: IdType, publicId: string): Promise<void> {
    const row = await this.one<{ id: string; order: number }>({ organizationId: db.organizationId } as Principal, list, parent, kind, publicId, 'id, "order"', db);
    await db.query(`DELETE FROM ${list.table} WHERE ${list.where} AND id = $2`, [parent, row.id]);
    await db.query(`UPDATE ${list.table} SET "order" = "order" - 1, updated_at = date_trunc('milliseconds', now()) WHERE ${list.where} AND "order" > $2`, [parent, row.order]);
  }

  /** Exactly one item id, an object of the organization (a catalog page of the same domain, not the page itself). */
  private async insertItem(db: Scoped, _m: EntityManager, pageId: string, blockId: string | null, list: OrderedList, parent: string, dto: PageItemRequest): Promise<ItemRow> {
    const sent = TARGETS.filter((t) => dto[t.member] !== undefined);
    if (sent.length !== 1) {
      throw new ValidationFailed([{ field: 'non_field_errors', message: 'Exactly one of item_catalog_page_id, item_published_course_id, item_published_path_id and item_plan_id is required.' }], 400);
    }
    const target = sent[0];
    const raw = dto[target.member] as string;
    const uuid = decodeId(target.kind, raw);
    const [found] = uuid
      ? await db.query<{ id: string }[]>(
          `SELECT t.id FROM ${target.table} t WHERE t.organization_id = $org AND t.id = $1 AND t.domain_id = (SELECT domain_id FROM catalog_pages WHERE id = $2 AND organization_id = $org)`,
          [uuid, pageId],
        )
      : [];
    if (!found || (target.table === 'catalog_pages' && uuid === pageId)) throw invalidPk(target.member, raw);
    const order = await this.openSlot(db, list, parent, dto.order);
    const [row] = rowsOf<ItemRow>(
      await db.query<unknown>(
        `INSERT INTO catalog_page_items (organization_id, catalog_page_id, block_id, "order", item_type, ${target.member}) VALUES ($org, $1, $2, $3, $4, $5) RETURNING ${ITEM_COLUMNS}`,
        [pageId, blockId, order, target.type, uuid],
      ),
    );
    return row;
  }
}

const itemIds = (r: ItemRow) => ({
  ...(r.item_catalog_page_id ? { item_catalog_page_id: encodeId('catalogPage', r.item_catalog_page_id) } : {}),
  ...(r.item_published_path_id ? { item_published_path_id: encodeId('publishedPath', r.item_published_path_id) } : {}),
  ...(r.item_published_course_id ? { item_published_course_id: encodeId('publishedCourse', r.item_published_course_id) } : {}),
  ...(r.item_plan_id ? { item_plan_id: encodeId('plan', r.item_plan_id) } : {}),
});

/** ClassicCatalogPageItem (and its order update). */
export const presentClassicItem = (r: ItemRow) => ({ id: encodeId('catalogPageItem', r.id), order: r.order, type: r.item_type, ...itemIds(r) });
/** TileContainerItem (and its order update). */
export const presentTileItem = (r: ItemRow) => ({ id: encodeId('tileContainerItem', r.id), order: r.order, item_type: r.item_type, ...itemIds(r) });
/** PageContentBlockItem (and its order update): the typed block's id under its kind. */
export function presentBlockItem(b: BlockRow) {
  const kind = blockKind(b.type);
  return {
    id: encodeId('catalogPageBlock', b.id),
    order: b.order,
    type: b.type,
    ...(kind === 'html' ? { html_content_block_id: encodeId('htmlContentBlock', b.id) } : {}),
    ...(kind === 'tile' ? { tile_container_content_block_id: encodeId('tileContainerBlock', b.id) } : {}),
    ...(kind === 'component' ? { component_content_block_id: encodeId('componentContentBlock', b.id) } : {}),
  };
}
/** HtmlContentBlock. */
export const presentHtmlBlock = (b: BlockRow) => ({ id: encodeId('htmlContentBlock', b.id), content_block_id: encodeId('catalogPageBlock', b.id), html: b.html });
/** TileContainerContentBlock (alignment left out until set: optional, not nullable). */
export const presentTileBlock = (b: BlockRow) => ({
  id: encodeId('tileContainerBlock', b.id),
  content_block_id: encodeId('catalogPageBlock', b.id),
  header_text: b.header_text,
  header_sub_text: b.header_sub_text,
  ...(b.alignment ? { alignment: b.alignment } : {}),
});
/** ComponentContentBlock. */
export const presentComponentBlock = (b: BlockRow) => ({
  id: encodeId('componentContentBlock', b.id),
  component: b.component ?? 'in_progress_content',
  header_text: b.header_text,
  header_sub_text: b.header_sub_text,
  include_profile_link: b.include_profile_link,
  max_tiles: b.max_tiles,
  ...(b.alignment ? { alignment: b.alignment } : {}),
});
