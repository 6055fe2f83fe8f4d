import { ApiQuery } from '@nestjs/swagger';
import type { ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import { isoOf, type Timestamp } from '../database/pool-reads';
import { dateTimeParam } from '../http/query-params';
import { applyKeyset, CursorPosition, PageRequest } from './cursor-page';

/**
 * /v2 `filter[updated_since]` (CONVENTIONS §20) for a list read through a TypeORM query builder:
 * an RFC 3339 time with an offset (otherwise 422 naming the parameter); the list then answers the
 * rows changed at or after it, ordered by last change with the cursor at `(updated_at, id)`
 * (`V2Page.documentAt(rows, present, v2ChangeOf)`). The table needs an index ending in
 * `(updated_at, id)`, and its `updated_at` kept at the millisecond (a cursor holds milliseconds:
 * the `updated_at_ms()` trigger where writes use TypeORM's CURRENT_TIMESTAMP).
 */
export const v2UpdatedSince = (query: Record<string, unknown>): Date | undefined => dateTimeParam(query, 'filter[updated_since]', true);

/** The OpenAPI declaration of `filter[updated_since]`. */
export const V2UpdatedSinceQuery = () =>
  ApiQuery({
    name: 'filter[updated_since]',
    required: false,
    schema: { type: 'string', format: 'date-time' },
    description: 'changed at or after (RFC 3339 with an offset); the list is then ordered by last change',
  });

/** The keyset page: by creation (applyKeyset), or with `since` the rows changed at or after it, by last change. */
export function v2SinceKeyset<T extends ObjectLiteral>(qb: SelectQueryBuilder<T>, alias: string, page: PageRequest, since: Date | undefined): SelectQueryBuilder<T> {
  if (!since) return applyKeyset(qb, alias, page);
  qb.andWhere(`${alias}.updated_at >= :__since`, { __since: since });
  if (page.after) qb.andWhere(`(${alias}.updated_at, ${alias}.id) > (:__t, :__id)`, { __t: page.after.t, __id: page.after.id });
  return qb
    .orderBy(`${alias}.updated_at`, 'ASC')
    .addOrderBy(`${alias}.id`, 'ASC')
    .limit(page.size + 1);
}

/** The cursor position of a row of a list by last change. */
export const v2ChangeOf = (r: { id: string; updatedAt: Timestamp }): CursorPosition => ({ t: isoOf(r.updatedAt), id: r.id });
