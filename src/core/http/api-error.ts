/**
 * Typed errors thrown by services and guards. Each interface's filter (see http-exception.filter.ts)
 * renders them in its own envelope: JSON:API on /v2, RFC 6749 on the token endpoints, RFC 7591 on
 * registration and `{"detail"}` on /v1.
 */
export interface ErrorSource {
  pointer?: string;
  parameter?: string;
  /** a request header (JSON:API 1.1), e.g. `Idempotency-Key` */
  header?: string;
}

export interface FieldProblem {
  /** JSON pointer into the body (`/data/0/attributes/email`) or a query parameter name. */
  pointer?: string;
  parameter?: string;
  /** The member name, used for /v1 field-error bodies. */
  field: string;
  message: string;
  /**
   * How /v1 shows this problem: Django REST framework's messages (drf-messages.ts) under the member
   * name (with the refused element's index for list members). Absent: `field` and `message`.
   */
  v1?: { field: string; messages: string[]; path?: V1Seg[] };
}

/**
 * One step of where a /v1 problem sits in Django REST framework's nested error body (CONVENTIONS
 * §16): a member name (an object's key, or a ListField element's index as DRF keys them: `{"labels":
 * {"0": [...]}}`), or a place in a list of objects (a nested serializer with many=True), which DRF
 * answers as a list of `of` entries, `{}` for the valid ones: `{"users": [{}, {"email": [...]}]}`.
 */
export type V1Seg = string | { index: number; of: number };

/** The problem's path in the /v1 body: its own, or read from the dotted member name (`a.1.b`: element 1 of a list of objects, `a.1` a key). */
export function v1PathOf(p: FieldProblem): V1Seg[] {
  if (p.v1?.path) return p.v1.path;
  const parts = (p.v1?.field ?? p.field).split('.');
  return parts.map((s, i) => (/^\d{1,6}$/.test(s) && i > 0 && i < parts.length - 1 ? { index: Number(s), of: Number(s) + 1 } : s));
}

/**
 * The /v1 validation body: every problem's messages at its place, nested as DRF nests them
 * (`{"vilt_session": {"id": [...]}}`, `{"users": [{}, {"email": [...]}]}`), each message once.
 */
export function v1ErrorBody(problems: FieldProblem[]): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  const isEmpty = (x: unknown) => typeof x === 'object' && x !== null && !Array.isArray(x) && !Object.keys(x).length;
  // the key of `seg` in `node`, or undefined when node is not the container seg needs (a place another problem shaped otherwise)
  const slot = (node: any, seg: V1Seg): string | number | undefined => {
    if (typeof seg === 'string') return typeof node === 'object' && node !== null && !Array.isArray(node) ? seg : undefined;
    if (!Array.isArray(node)) return undefined;
    while (node.length <= seg.index) node.push({});
    return seg.index;
  };
  next: for (const p of problems) {
    const path = v1PathOf(p);
    let node: any = body;
    for (let i = 0; i < path.length - 1; i++) {
      const key = slot(node, path[i]);
      if (key === undefined) continue next;
      const after = path[i + 1];
      if (node[key] === undefined || (typeof after !== 'string' && isEmpty(node[key]))) {
        node[key] = typeof after === 'string' ? {} : Array.from({ length: after.of }, () => ({}));
      }
      node = node[key];
    }
    const key = slot(node, path[path.length - 1]);
    if (key === undefined) continue;
    if (node[key] === undefined || isEmpty(node[key])) node[key] = [];
    const list = node[key];
    if (!Array.isArray(list) || !list.every((m) => typeof m === 'string')) continue;
    for (const m of p.v1?.messages ?? [p.message]) if (!list.includes(m)) list.push(m);
  }
  return body;
}

export const V2_CODES: Record<number, string> = {
  400: 'invalid_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  409: 'conflict',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  422: 'validation_error',
  429: 'rate_limited',
  500: 'internal_error',
  501: 'not_implemented',
  503: 'service_unavailable',
};

export const TITLES: Record<number, string> = {
  400: 'Bad request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not found',
  405: 'Method not allowed',
  409: 'Conflict',
  413: 'Payload too large',
  415: 'Unsupported media type',
  422: 'Validation error',
  429: 'Too many requests',
  500: 'Internal error',
  501: 'Not implemented',
  503: 'Service unavailable',
};

export interface ApiErrorOptions {
  code?: string;
  source?: ErrorSource;
  headers?: Record<string, string>;
  /** RFC 6749 / RFC 7591 error code when raised on the OAuth endpoints. */
  oauthError?: string;
  problems?: FieldProblem[];
}

export class ApiError extends Error {
  readonly code: string;
  readonly source?: ErrorSource;
  readonly headers: Record<string, string>;
  readonly oauthError?: string;
  readonly problems: FieldProblem[];

  constructor(
    readonly status: number,
    readonly detail: string,
    opts: ApiErrorOptions = {},
  ) {
    super(detail);
    this.code = opts.code ?? V2_CODES[status] ?? 'error';
    this.source = opts.source;
    this.headers = opts.headers ?? {};
    this.oauthError = opts.oauthError;
    this.problems = opts.problems ?? [];
  }
}

export const badRequest = (detail: string, opts?: ApiErrorOptions) => new ApiError(400, detail, opts);
export const unauthorized = (detail = 'Authentication credentials were not provided or are invalid.', opts?: ApiErrorOptions) => new ApiError(401, detail, opts);
export const forbidden = (detail = 'You do not have permission to perform this action.', opts?: ApiErrorOptions) => new ApiError(403, detail, opts);
export const notFound = (detail = 'Not found.', opts?: ApiErrorOptions) => new ApiError(404, detail, opts);
export const conflict = (detail: string, opts?: ApiErrorOptions) => new ApiError(409, detail, opts);
export const tooManyRequests = (retryAfter: number, headers: Record<string, string> = {}) =>
  new ApiError(429, 'Request was throttled.', { headers: { 'Retry-After': String(retryAfter), ...headers } });

/**
 * A /v1 list filter whose value no row can hold (a NUL character, which PostgreSQL text cannot
 * store): the list is empty, answered by the /v1 filter as the empty list envelope. A list filter
 * never fails on a long or odd value: it matches nothing (CONVENTIONS §16).
 */
export class NoMatch extends Error {
  constructor(readonly parameter: string) {
    super(`${parameter}: matches nothing`);
  }
}

/** One or more invalid members: 422 `validation_error` on /v2, 400 `{"field": [...]}` on /v1. */
export class ValidationFailed extends ApiError {
  constructor(problems: FieldProblem[], status = 422) {
    super(status, problems.map((p) => `${p.field}: ${p.message}`).join('; ') || 'Invalid input.', {
      code: 'validation_error',
      problems,
      oauthError: 'invalid_request',
    });
  }
}

/**
 * PostgreSQL "data exception" errors (SQLSTATE class 22: a NUL character in text, a value out of
 * range, an unparsable date or uuid...) are caused by the input, not by the server. Services validate
 * first; this is the safety net that keeps such input a 4xx should a check be missing.
 */
export function isBadInputDbError(err: unknown): boolean {
  const code = (err as any)?.code;
  return typeof code === 'string' && /^22[0-9A-Z]{3}$/.test(code) && (err as any)?.name === 'QueryFailedError';
}
