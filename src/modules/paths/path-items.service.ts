import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import type { Principal } from '../../core/auth/principal';
import { notFound } from '../../core/http/api-error';
import { fieldError } from '../../core/http/v1-rules';
import { decodeId, encodeId } from '../../core/ids/ids';
import type { V1PageRequest } from '../../core/pagination/v1-page';
import { v1SinceSql } from '../../core/pagination/updated-since';
import { invalidPk } from '../enrollments/program-enrollments';
import type { PathItemCreateDto, PathItemUpdateDto } from './dto/published-path.dto';
import { isUniqueViolation } from '../../core/database/sql';
import { PathLookups } from './path-lookups.service';
import { writePublishedPath } from './published-path-write';
import { LearningPath } from './path.entity';
import { PathItem } from './published-path.entity';
import { liveLesson } from '../../core/database/fragments';
import { scoped } from '../../core/database/scoped';
import type { PathItemViewRow } from './path-items.store';

export interface PathItemView {
  item: PathItem;
  slug: string;
  courseId: string;
  courseTitle: string;
  lessonCount: number;
  requiredLessonCount: number;
}

/** The items of a path: through a published path of a domain, and read-only through /v1/paths. */
@Injectable()
export class PathItemsService {
  constructor(
    private readonly ds: DataSource,
    private readonly lookups: PathLookups,
  ) {}

  /** Items of a path with their published course and course stats; one query for the page. */
  private async itemViews(m: EntityManager, organizationId: string, pathId: string, page: V1PageRequest | null, itemId?: string): Promise<{ rows: PathItemView[]; count: number }> {
    const params: unknown[] = [pathId];
    let extra = '';
    if (itemId) {
      params.push(itemId);
      extra = ` AND pi.id = $2`;
    }
    const db = scoped(m, organizationId);
    let from = `FROM path_items pi JOIN published_courses pc ON pc.id = pi.published_course_id AND pc.unpublished_at IS NULL
                  JOIN courses c ON c.id = pc.course_id
                  WHERE pi.organization_id = $org AND pi.path_id = $1${extra}`;
    // updated_since (a list's page): the items changed since, by last change, on path_items_path_updated_idx
    const since = page ? v1SinceSql(page, 'pi.updated_at', params.length + 1, 'pi."order", pi.id') : { and: '', params: [], order: 'pi."order", pi.id' };
    from += since.and;
    params.push(...since.params);
    const [{ n }] = await db.query<{ n: number }[]>(`SELECT count(*)::int AS n ${from}`, params);
    const limit = page ? ` LIMIT ${page.pageSize} OFFSET ${page.offset}` : '';
    const rows = await db.query<PathItemViewRow[]>(
      `SELECT pi.*, pc.slug, pc.course_id AS c_id, c.title AS c_title,
              COALESCE(ls.lesson_count, 0)::int AS lesson_count, COALESCE(ls.required_count, 0)::int AS required_count
         ${from.replace(
           'WHERE',
           `LEFT JOIN LATERAL (
              SELECT count(*) AS lesson_count, count(*) FILTER (WHERE NOT l.optional) AS required_count
                FROM lessons l WHERE l.course_id = c.id AND ${liveLesson('l')}) ls ON true
          WHERE`,
         )}
        ORDER BY ${since.order}${limit}`,
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
    const domain = await this.lookups.domain(p, domainName);
    const pp = await this.lookups.publishedPath(this.ds.manager, p, domain, id);
    return this.itemViews(this.ds.manager, p.organizationId, pp.pathId, page);
  }

  async readItem(p: Principal, domainName: string, id: string, itemId: string): Promise<PathItemView> {
    const domain = await this.lookups.domain(p, domainName);
    const pp = await this.lookups.publishedPath(this.ds.manager, p, domain, id);
    return this.itemView(this.ds.manager, p.organizationId, pp.pathId, itemId);
  }

  private async assertOrderFree(m: EntityManager, organizationId: string, pathId: string, order: number, exceptId?: string) {
    const rows = await scoped(m, organizationId).query<unknown[]>(`SELECT 1 FROM path_items WHERE path_id = $1 AND organization_id = $org AND "order" = $2 AND ($3::uuid IS NULL OR id <> $3::uuid)`, [
      pathId,
      order,
      exceptId ?? null,
    ]);
    if (rows.length) throw fieldError('order', 'A path item with this order already exists in this path.');
  }

  private mapItemConflict(e: unknown): never {
    if (isUniqueViolation(e, 'path_items_path_order_uq')) throw fieldError('order', 'A path item with this order already exists in this path.');
    if (isUniqueViolation(e, 'path_items_path_course_uq')) throw fieldError('published_course.id', 'This published course is already in the path.');
    throw e;
  }

  async createItem(p: Principal, domainName: string, id: string, dto: PathItemCreateDto): Promise<PathItemView> {
    return writePublishedPath(
      this.ds,
      this.lookups,
      p,
      domainName,
      id,
      (e) => this.mapItemConflict(e),
      async (m, pp, domain) => {
        // A live published course of the organization on the same domain as the path.
        const pcUuid = decodeId('publishedCourse', dto.published_course.id);
        const pc = pcUuid
          ? await scoped(m, p.organizationId).query<{ id: string }[]>(`SELECT id FROM published_courses WHERE id = $1 AND organization_id = $org AND domain_id = $2 AND unpublished_at IS NULL`, [
              pcUuid,
              domain.id,
            ])
          : [];
        if (!pc.length) throw invalidPk('published_course.id', dto.published_course.id);
        await this.assertOrderFree(m, p.organizationId, pp.pathId, dto.order);
        const dup = await scoped(m, p.organizationId).query<unknown[]>(`SELECT 1 FROM path_items WHERE path_id = $1 AND published_course_id = $2 AND organization_id = $org`, [pp.pathId, pcUuid]);
        if (dup.length) throw fieldError('published_course.id', 'This published course is already in the path.');
        const item = await m.getRepository(PathItem).save(m.getRepository(PathItem).create({ organizationId: p.organizationId, pathId: pp.pathId, publishedCourseId: pcUuid!, order: dto.order }));
        await m.getRepository(LearningPath).update({ id: pp.pathId, organizationId: p.organizationId }, { updatedAt: new Date() });
        return this.itemView(m, p.organizationId, pp.pathId, encodeId('pathItem', item.id));
      },
    );
  }

  async updateItem(p: Principal, domainName: string, id: string, itemId: string, dto: PathItemUpdateDto): Promise<PathItemView> {
    return writePublishedPath(
      this.ds,
      this.lookups,
      p,
      domainName,
      id,
      (e) => this.mapItemConflict(e),
      async (m, pp) => {
        const view = await this.itemView(m, p.organizationId, pp.pathId, itemId);
        if (dto.order !== undefined && dto.order !== view.item.order) {
          await this.assertOrderFree(m, p.organizationId, pp.pathId, dto.order, view.item.id);
          await m.getRepository(PathItem).update({ id: view.item.id, organizationId: p.organizationId }, { order: dto.order });
          return this.itemView(m, p.organizationId, pp.pathId, itemId);
        }
        return view;
      },
    );
  }

  async deleteItem(p: Principal, domainName: string, id: string, itemId: string): Promise<void> {
    const domain = await this.lookups.domain(p, domainName);
    const pp = await this.lookups.publishedPath(this.ds.manager, p, domain, id);
    const view = await this.itemView(this.ds.manager, p.organizationId, pp.pathId, itemId);
    await this.ds.getRepository(PathItem).delete({ id: view.item.id, organizationId: p.organizationId });
  }

  // ------------------------------------------------------------------ /v1/paths/{id}/items

  async listPathItems(p: Principal, id: string, page: V1PageRequest) {
    const m = this.ds.manager;
    const path = await this.lookups.pathByPublicId(m, p, id);
    return this.itemViews(m, p.organizationId, path.id, page);
  }

  async readPathItem(p: Principal, id: string, itemId: string): Promise<PathItemView> {
    const m = this.ds.manager;
    const path = await this.lookups.pathByPublicId(m, p, id);
    return this.itemView(m, p.organizationId, path.id, itemId);
  }
}
