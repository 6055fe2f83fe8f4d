import { createParamDecorator, ExecutionContext, Injectable, PipeTransform } from '@nestjs/common';
import { ApiQuery } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { SelectQueryBuilder, ObjectLiteral } from 'typeorm';
import { AppConfig } from '../config/config';
import { ApiError, ValidationFailed } from '../http/api-error';
import { signPayload, verifyPayload } from '../crypto/crypto';
import { absoluteUrl, requestBaseUrl } from '../http/base-url';
import { isoOf, type Timestamp } from '../database/pool-reads';

/**
 * /v2 cursor pagination. `page[size]` 1..100 (default 25, out of range 422); `page[cursor]` is an
 * opaque, HMAC-signed keyset position (tampered: 400). Rows are ordered by (created_at, id), or
 * newest first where a list says so, and the query must be served by an index on
 * (organization_id, created_at, id).
 */
export interface CursorPosition {
  t: string; // ISO timestamp (ms precision; the database truncates created_at to ms)
  id: string; // uuid
}

export interface PageRequest {
  size: number;
  after?: CursorPosition;
  /** the list this cursor belongs to, so a cursor from one list cannot be replayed on another */
  scope: string;
}

const MAX = 100;
const DEFAULT = 25;

export function parsePage(query: Record<string, unknown>, secret: string, scope: string): PageRequest {
  const rawSize = query['page[size]'];
  let size = DEFAULT;
  if (rawSize !== undefined) {
    const n = typeof rawSize === 'string' && /^-?\d+$/.test(rawSize) ? Number(rawSize) : NaN;
    if (!Number.isInteger(n) || n < 1 || n > MAX) {
      throw new ValidationFailed([{ parameter: 'page[size]', field: 'page[size]', message: `must be an integer from 1 to ${MAX}` }]);
    }
    size = n;
  }
  const rawCursor = query['page[cursor]'];
  if (rawCursor === undefined || rawCursor === '') return { size, scope };
  const pos = verifyPayload<CursorPosition & { s: string }>(secret, 'cursor', rawCursor);
  if (!pos || pos.s !== scope || typeof pos.t !== 'string' || typeof pos.id !== 'string' || Number.isNaN(Date.parse(pos.t))) {
    throw new ApiError(400, 'The page cursor is invalid.', { code: 'invalid_request', source: { parameter: 'page[cursor]' } });
  }
  return { size, after: { t: pos.t, id: pos.id }, scope };
}

/** Add the keyset condition, order and limit (size + 1, to know whether more follow). */
export function applyKeyset<T extends ObjectLiteral>(qb: SelectQueryBuilder<T>, alias: string, page: PageRequest, direction: 'ASC' | 'DESC' = 'ASC'): SelectQueryBuilder<T> {
  if (page.after) {
    const op = direction === 'ASC' ? '>' : '<';
    qb.andWhere(`(${alias}.created_at, ${alias}.id) ${op} (:__t, :__id)`, { __t: page.after.t, __id: page.after.id });
  }
  return qb
    .orderBy(`${alias}.created_at`, direction)
    .addOrderBy(`${alias}.id`, direction)
    .limit(page.size + 1);
}

export interface Keyed {
  id: string;
  createdAt: Timestamp;
}

export interface ListDocument<R> {
  data: R[];
  links: { self: string; next: string | null; prev: string | null };
  meta: { page_size: number } & Record<string, unknown>;
  has_more: boolean;
  next_cursor: string | null;
}

/**
 * Build the list document from size + 1 fetched rows. `url` is the request URL (path + query),
 * `baseUrl` the request's base (core/http/base-url.ts `requestBaseUrl`).
 */
export function pageDocument<E extends Keyed, R>(rows: E[], page: PageRequest, present: (row: E) => R, baseUrl: string, url: string, secret: string): ListDocument<R> {
  const hasMore = rows.length > page.size;
  const shown = hasMore ? rows.slice(0, page.size) : rows;
  const last = shown[shown.length - 1];
  return { data: shown.map(present), ...pageTrailer(page, hasMore, hasMore && last ? { t: isoOf(last.createdAt), id: last.id } : undefined, baseUrl, url, secret) };
}

/** Everything of a list document after `data`; `last`: the position of the last shown row when more follow. */
function pageTrailer(page: PageRequest, hasMore: boolean, last: CursorPosition | undefined, baseUrl: string, url: string, secret: string): Omit<ListDocument<never>, 'data'> {
  const nextCursor = last ? signPayload(secret, 'cursor', { t: last.t, id: last.id, s: page.scope }) : null;
  const self = new URL(absoluteUrl(baseUrl, url));
  let next: string | null = null;
  if (nextCursor) {
    const n = new URL(self.toString());
    n.searchParams.set('page[cursor]', nextCursor);
    next = n.toString();
  }
  return {
    links: { self: self.toString(), next, prev: null },
    meta: { page_size: page.size },
    has_more: hasMore,
    next_cursor: nextCursor,
  };
}

/**
 * The ordinary empty page of the /v2 list the request asks for, without a statement: what a list
 * answers when a filter matches nothing before any row is read (an over-long value, NoMatch,
 * CONVENTIONS §16). `page[size]` is checked as parsePage checks it (422); a cursor must carry our
 * signature (400), whichever list it came from.
 */
export function emptyV2Page(config: AppConfig, req: FastifyRequest): ListDocument<never> {
  const { 'page[cursor]': cursor, ...query } = (req.query ?? {}) as Record<string, unknown>;
  const page = parsePage(query, config.APP_SECRET, '');
  if (cursor !== undefined && cursor !== '' && !verifyPayload(config.APP_SECRET, 'cursor', cursor)) {
    throw new ApiError(400, 'The page cursor is invalid.', { code: 'invalid_request', source: { parameter: 'page[cursor]' } });
  }
  return { data: [], ...pageTrailer(page, false, undefined, requestBaseUrl(config, req), req.url, config.APP_SECRET) };
}

/** The media type Fastify gives a serialized object: what a handler answering JSON text sets (the /v2 one is set on send). */
export const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * pageDocument's document as its JSON text, the same bytes as `JSON.stringify(pageDocument(...))`,
 * written straight from the rows: `presentJson` gives a row's presented resource as JSON text and
 * `positionOf` the keyset position of a row (asked of the last shown row only). For hot lists whose
 * rows need not become entities and resources first (students).
 */
export function pageDocumentJson<E>(rows: E[], page: PageRequest, presentJson: (row: E) => string, positionOf: (row: E) => CursorPosition, baseUrl: string, url: string, secret: string): string {
  const hasMore = rows.length > page.size;
  const n = hasMore ? page.size : rows.length;
  let data = '';
  for (let i = 0; i < n; i++) data += i === 0 ? presentJson(rows[i]) : ',' + presentJson(rows[i]);
  const trailer = JSON.stringify(pageTrailer(page, hasMore, hasMore && n > 0 ? positionOf(rows[n - 1]) : undefined, baseUrl, url, secret));
  return '{"data":[' + data + '],' + trailer.slice(1);
}

/** A /v2 list handler's page: the page asked for, the request's base URL, and the list document it answers (`document`). */
export class V2Page implements PageRequest {
  readonly size: number;
  readonly after?: CursorPosition;
  readonly scope: string;

  constructor(
    request: PageRequest,
    /** the request's base URL, for presenters that make absolute links */
    readonly baseUrl: string,
    private readonly url: string,
    private readonly secret: string,
  ) {
    ({ size: this.size, after: this.after, scope: this.scope } = request);
  }

  /** The list document of the size + 1 fetched `rows`, each presented. */
  document<E extends Keyed, R>(rows: E[], present: (row: E) => R): ListDocument<R> {
    return pageDocument(rows, this, present, this.baseUrl, this.url, this.secret);
  }

  /**
   * The list document of a list ordered by another column than created_at (`filter[updated_since]`
   * orders by last change, CONVENTIONS §20): `positionOf` gives the keyset position of a row.
   */
  documentAt<E, R>(rows: E[], present: (row: E) => R, positionOf: (row: E) => CursorPosition): ListDocument<R> {
    const hasMore = rows.length > this.size;
    const shown = hasMore ? rows.slice(0, this.size) : rows;
    const last = shown[shown.length - 1];
    return { data: shown.map(present), ...pageTrailer(this, hasMore, hasMore && last ? positionOf(last) : undefined, this.baseUrl, this.url, this.secret) };
  }

  /** The same document as JSON text (pageDocumentJson), for a handler that answers JSON text. */
  documentJson<E>(rows: E[], presentJson: (row: E) => string, positionOf: (row: E) => CursorPosition): string {
    return pageDocumentJson(rows, this, presentJson, positionOf, this.baseUrl, this.url, this.secret);
  }

  /** The rows of the size + 1 fetched `rows` that this page shows (for what a document includes beside them). */
  shown<E>(rows: E[]): E[] {
    return rows.slice(0, this.size);
  }
}

/** Turns the request into its V2Page: `page[size]` and `page[cursor]` (for the list `scope`), the base URL and URL. */
@Injectable()
export class V2PagePipe implements PipeTransform<{ req: FastifyRequest; scope: string }, V2Page> {
  constructor(private readonly config: AppConfig) {}

  transform({ req, scope }: { req: FastifyRequest; scope: string }): V2Page {
    return v2PageOf(this.config, req, scope);
  }
}

/** The request's V2Page for the list `scope` (what @CursorPaged gives a handler); throws as parsePage does. */
export function v2PageOf(config: AppConfig, req: FastifyRequest, scope: string): V2Page {
  const request = parsePage((req.query ?? {}) as Record<string, unknown>, config.APP_SECRET, scope);
  return new V2Page(request, requestBaseUrl(config, req), req.url, config.APP_SECRET);
}

const V2PageParam = createParamDecorator((scope: string, ctx: ExecutionContext) => ({ req: ctx.switchToHttp().getRequest<FastifyRequest>(), scope }));

/** The OpenAPI query parameters of a /v2 page, in the order the document lists them. */
const PAGE_QUERIES = [
  ApiQuery({ name: 'page[cursor]', required: false, schema: { type: 'string' } }),
  ApiQuery({ name: 'page[size]', required: false, schema: { type: 'integer', minimum: 1, maximum: MAX, default: DEFAULT } }),
];

/**
 * The page of a /v2 list handler (`@CursorPaged('courses') page: V2Page`), parsed before the
 * handler runs (a bad `page[size]` 422, a bad cursor 400); the handler answers
 * `page.document(rows, present)`. `scope` names the list its cursors belong to. The operation's
 * OpenAPI document gets `page[cursor]` and `page[size]` ahead of the handler's own query
 * parameters, unless `document` is false (a query class or a decorator of the handler lists them).
 */
export const CursorPaged =
  (scope: string, opts: { document?: boolean } = {}): ParameterDecorator =>
  (target, key, index) => {
    V2PageParam(scope, V2PagePipe)(target, key, index);
    if (opts.document === false || key === undefined) return;
    const descriptor = Object.getOwnPropertyDescriptor(target, key)!;
    for (const q of PAGE_QUERIES) q(target, key, descriptor);
  };
