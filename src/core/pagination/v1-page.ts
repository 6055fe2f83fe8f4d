import { createParamDecorator, ExecutionContext, Injectable, PipeTransform } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { AppConfig } from '../config/config';
import { ApiError, ValidationFailed } from '../http/api-error';
import { absoluteUrl, requestBaseUrl } from '../http/base-url';

/**
 * /v1 page-number pagination, as the published API does it: `page` (1-based) and `page_size`
 * (capped at the family's limit from resource-reference-api.md section 8; a larger value is clamped,
 * as Django REST framework does). A page past the end is 404 {"detail": "Invalid page."}.
 * Lists answer `{count, next, previous, results}` with absolute URLs.
 */
export interface V1PageRequest {
  page: number;
  pageSize: number;
  offset: number;
  /**
   * A @V1Resource list's `updated_since` (core/pagination/updated-since.ts): the list then answers
   * the rows changed at or after it, ordered by last change. Undefined when not given.
   */
  readonly updatedSince?: Date;
}

/** The caps of section 8. */
export const V1_PAGE_CAP = { small: 100, large: 1000 } as const;

/**
 * The reads the published document answers as a bare JSON array (CONVENTIONS §16: a user's
 * published-courses, plan-enrollments and published-path-enrollments): `page` and `page_size` choose
 * a window of at most 1,000 rows, 1,000 when page_size is not given; a window past the end is `[]`
 * (docs/decisions/v1-users.md). `@Paged(...V1_WINDOW)`, then `page.window(...)` / `page.windowJson(...)`.
 */
export const V1_WINDOW = [1000, 1000] as const;

export function parseV1Page(query: Record<string, unknown>, cap: number, defaultSize = cap): V1PageRequest {
  const rawPage = query.page;
  let page = 1;
  if (rawPage !== undefined && rawPage !== '') {
    if (typeof rawPage !== 'string' || !/^\d{1,9}$/.test(rawPage) || Number(rawPage) < 1) {
      throw new ValidationFailed([{ parameter: 'page', field: 'page', message: 'A valid positive integer is required.' }], 400);
    }
    page = Number(rawPage);
  }
  let pageSize = Math.min(defaultSize, cap);
  const rawSize = query.page_size;
  if (rawSize !== undefined && rawSize !== '') {
    if (typeof rawSize !== 'string' || !/^\d{1,9}$/.test(rawSize) || Number(rawSize) < 1) {
      throw new ValidationFailed([{ parameter: 'page_size', field: 'page_size', message: 'A valid positive integer is required.' }], 400);
    }
    pageSize = Math.min(Number(rawSize), cap);
  }
  return { page, pageSize, offset: (page - 1) * pageSize };
}

export interface V1List<R> {
  count: number;
  next: string | null;
  previous: string | null;
  results: R[];
}

/** Build the list body. `url` is the request URL (path + query), `baseUrl` the request's base (core/http/base-url.ts `requestBaseUrl`). */
export function v1List<R>(results: R[], count: number, page: V1PageRequest, baseUrl: string, url: string): V1List<R> {
  if (page.page > 1 && page.offset >= count) throw new ApiError(404, 'Invalid page.');
  const link = (n: number | null) => {
    if (n === null) return null;
    const u = new URL(absoluteUrl(baseUrl, url));
    if (n === 1) u.searchParams.delete('page');
    else u.searchParams.set('page', String(n));
    return u.toString();
  };
  const hasNext = page.offset + results.length < count;
  return {
    count,
    next: hasNext ? link(page.page + 1) : null,
    previous: page.page > 1 ? link(page.page - 1) : null,
    results,
  };
}

/**
 * v1List's body as its JSON text, the same bytes as `JSON.stringify(v1List(...))`, from the
 * results' JSON texts (each a presented row written directly): for the hot lists (domain users).
 */
export function v1ListJson(results: string[], count: number, page: V1PageRequest, baseUrl: string, url: string): string {
  const { next, previous } = v1List(results, count, page, baseUrl, url);
  return '{"count":' + JSON.stringify(count) + ',"next":' + JSON.stringify(next) + ',"previous":' + JSON.stringify(previous) + ',"results":[' + results.join(',') + ']}';
}

/** A /v1 list handler's page: the page asked for, and the list body it answers (`list`). */
export class V1Page implements V1PageRequest {
  readonly page: number;
  readonly pageSize: number;
  readonly offset: number;
  private since?: Date;
  private sinceRead = false;

  constructor(
    request: V1PageRequest,
    private readonly baseUrl: string,
    private readonly url: string,
  ) {
    ({ page: this.page, pageSize: this.pageSize, offset: this.offset } = request);
  }

  /** The list's `updated_since` (set by @V1Resource); reading it tells the handler the list applied it. */
  get updatedSince(): Date | undefined {
    this.sinceRead = true;
    return this.since;
  }

  /** @V1Resource: the query's `updated_since`, for the service to apply. */
  withUpdatedSince(since: Date | undefined): this {
    this.since = since;
    return this;
  }

  /** `updated_since` was given and the service never read it (a list that does not apply it yet). */
  get updatedSinceIgnored(): boolean {
    return this.since !== undefined && !this.sinceRead;
  }

  /** The list body: `results` (this page's rows, presented) of `count` in all, with the next/previous links of this request. */
  list<R>(results: R[], count: number): V1List<R> {
    return v1List(results, count, this, this.baseUrl, this.url);
  }

  /** The same body as JSON text (v1ListJson), from the results' JSON texts, for a handler that answers JSON text. */
  listJson(results: string[], count: number): string {
    return v1ListJson(results, count, this, this.baseUrl, this.url);
  }

  /** A bare-array read's answer (V1_WINDOW): this window's rows, presented, as they are. */
  window<R>(results: R[]): R[] {
    return results;
  }

  /** The same as JSON text, from the rows' JSON texts. */
  windowJson(results: string[]): string {
    return '[' + results.join(',') + ']';
  }
}

/** Turns the request into its V1Page: the query's `page` and `page_size` (capped), the request's base URL and URL. */
@Injectable()
export class V1PagePipe implements PipeTransform<{ req: FastifyRequest; sizes: PageSizes }, V1Page> {
  constructor(private readonly config: AppConfig) {}

  transform({ req, sizes }: { req: FastifyRequest; sizes: PageSizes }): V1Page {
    const request = parseV1Page((req.query ?? {}) as Record<string, unknown>, sizes.cap, sizes.defaultSize);
    return new V1Page(request, requestBaseUrl(this.config, req), req.url);
  }
}

interface PageSizes {
  cap: number;
  defaultSize: number;
}

const V1PageParam = createParamDecorator((sizes: PageSizes, ctx: ExecutionContext) => ({ req: ctx.switchToHttp().getRequest<FastifyRequest>(), sizes }));

/**
 * The page of a /v1 list handler (`@Paged(V1_PAGE_CAP.small) page: V1Page`): parses `page` and
 * `page_size` with `cap` (section 8; `defaultSize` when page_size is not given) before the
 * handler runs; the handler answers `page.list(rows.map(present), count)`.
 */
export const Paged = (cap: number, defaultSize = cap): ParameterDecorator => V1PageParam({ cap, defaultSize }, V1PagePipe);
