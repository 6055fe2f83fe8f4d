import { ApiQuery } from '@nestjs/swagger';
import { FindOptionsOrder, FindOptionsWhere, MoreThanOrEqual, ObjectLiteral, Repository, SelectQueryBuilder } from 'typeorm';
import { isoOf } from '../../core/database/pool-reads';
import { dateTimeParam } from '../../core/http/query-params';
import { applyKeyset, CursorPosition, PageRequest } from '../../core/pagination/cursor-page';
import type { V1PageRequest } from '../../core/pagination/v1-page';

/** An uploaded content file's row (assets, web packages): the organization's, with its creation and last change. */
interface FileRow {
  id: string;
  organizationId: string;
  createdAt: Date;
  updatedAt: Date;
}

/**
 * The lists of uploaded content files with `updated_since` (docs/decisions/data-out.md): a change
 * is a write of the row (its name or options, the worker settling an import); the row's
 * `updated_at` is kept at the millisecond by a trigger (a /v2 cursor holds milliseconds), and each
 * table has its `(organization_id, updated_at, id)` index (migration 1763930000000).
 */

/** A /v1 page: oldest first, or with the page's `updated_since` the rows changed at or after it, by last change. */
export async function filePage<T extends FileRow>(repo: Repository<T>, organizationId: string, page: V1PageRequest): Promise<{ rows: T[]; count: number }> {
  const since = page.updatedSince;
  const [rows, count] = await repo.findAndCount({
    where: { organizationId, ...(since ? { updatedAt: MoreThanOrEqual(since) } : {}) } as FindOptionsWhere<T>,
    order: (since ? { updatedAt: 'ASC', id: 'ASC' } : { createdAt: 'ASC', id: 'ASC' }) as FindOptionsOrder<T>,
    skip: page.offset,
    take: page.pageSize,
  });
  return { rows, count };
}

/** The /v2 list's `filter[updated_since]` (422 naming it when it is not an RFC 3339 time with an offset). */
export const fileUpdatedSince = (query: Record<string, unknown>): Date | undefined => dateTimeParam(query, 'filter[updated_since]', true);

/** Its OpenAPI declaration. */
export const FileUpdatedSinceQuery = () =>
  ApiQuery({
    name: 'filter[updated_since]',
    required: false,
    schema: { type: 'string', format: 'date-time' },
    description: 'changed at or after (RFC 3339 with an offset); the list is then ordered by last change',
  });

/** A /v2 keyset page: by creation, or with `since` the rows changed at or after it, by last change (the cursor at (updated_at, id)). */
export function fileKeyset<T extends ObjectLiteral>(qb: SelectQueryBuilder<T>, alias: string, page: PageRequest, since: Date | undefined): SelectQueryBuilder<T> {
  if (!since) return applyKeyset(qb, alias, page);
  qb.andWhere(`${alias}.updated_at >= :__since`, { __since: since });
  if (page.after) qb.andWhere(`(${alias}.updated_at, ${alias}.id) > (:__t, :__id)`, { __t: page.after.t, __id: page.after.id });
  return qb
    .orderBy(`${alias}.updated_at`, 'ASC')
    .addOrderBy(`${alias}.id`, 'ASC')
    .limit(page.size + 1);
}

/** The cursor position of a row of a list by last change. */
export const fileChange = (r: FileRow): CursorPosition => ({ t: isoOf(r.updatedAt), id: r.id });
