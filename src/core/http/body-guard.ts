import type { FastifyRequest } from 'fastify';
import { ApiError, badRequest, FieldProblem, notFound, ValidationFailed } from './api-error';
import { DRF } from './drf-messages';
import { apiOf, type ApiInterface } from './interfaces';

/**
 * Checks every request before any route code sees it (the preValidation hook of app.factory.ts):
 * - the body, whatever parser made it (JSON, JSON:API, merge-patch, url-encoded and multipart forms):
 *   - nesting deeper than MAX_BODY_DEPTH objects/arrays is a 400 in the interface's envelope
 *     (JSON.parse copes with 3,000 levels; class-transformer and class-validator recurse and
 *     overflow the stack);
 *   - a string (or member name) holding a lone UTF-16 surrogate (`"\ud800"` is valid JSON, but not
 *     Unicode: PostgreSQL refuses it in jsonb, and text columns would silently get U+FFFD), or a NUL
 *     character (`"\u0000"`: PostgreSQL refuses it in text and jsonb alike), is a field error naming
 *     the member, with Django REST framework's message: 400 `{"field": [...]}` on /v1, 422
 *     `validation_error` with a pointer on /v2, `invalid_request` on the OAuth endpoints. Every
 *     such member is named, and nothing is stored;
 * - the path and query parameters (checkUrl): a NUL character (`%00`) is refused the same way,
 *   naming the parameter, before any statement can carry it to PostgreSQL.
 * The body walk stops at the depth cap, so it never recurses deeper than MAX_BODY_DEPTH frames, and
 * allocates nothing unless it finds something.
 */
export const MAX_BODY_DEPTH = 64;

interface Found {
  /** member names and indexes from the innermost out (reversed once at the top) */
  path: string[];
  /** the refused code unit: a lone surrogate, or 0 for a NUL character */
  codePoint: number;
  /** the refused string is an element of a list (the list member is what /v1 names, as its list rules do) */
  element?: boolean;
  next?: Found;
}

const TOO_DEEP = Symbol('too deep');

const wellFormed = (s: string): boolean => (s as unknown as { isWellFormed(): boolean }).isWellFormed();

/** A NUL character (0) or a lone surrogate (its code unit) in `s`, or -1. */
function refusedCodeUnit(s: string): number {
  if (s.indexOf('\u0000') !== -1) return 0;
  if (wellFormed(s)) return -1;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const n = s.charCodeAt(i + 1);
      if (n >= 0xdc00 && n <= 0xdfff) i++;
      else return c;
    } else if (c >= 0xdc00 && c <= 0xdfff) return c;
  }
  return -1;
}

/** Printable form of a member name holding a refused character (U+FFFD in its place). */
const printable = (s: string) => s.replace(/\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');

/** Chain `more` after the list `head` (either may be null); returns the head. */
function append(head: Found | null, more: Found): Found {
  if (!head) return more;
  let last = head;
  while (last.next) last = last.next;
  last.next = more;
  return head;
}

/** Every refused string under `v`, as a chain; no allocation unless something is found; recursion never deeper than MAX_BODY_DEPTH. */
function walk(v: unknown, depth: number): Found | typeof TOO_DEEP | null {
  if (typeof v === 'string') {
    const c = refusedCodeUnit(v);
    return c < 0 ? null : { path: [], codePoint: c };
  }
  if (v === null || typeof v !== 'object') return null;
  if (depth >= MAX_BODY_DEPTH) return TOO_DEEP;
  let found: Found | null = null;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const r = walk(v[i], depth + 1);
      if (r === TOO_DEEP) return r;
      if (r) {
        for (let f: Found | undefined = r; f; f = f.next) {
          if (f.path.length === 0) f.element = true;
          f.path.push(String(i));
        }
        found = append(found, r);
      }
    }
    return found;
  }
  for (const key in v as Record<string, unknown>) {
    if (!Object.prototype.hasOwnProperty.call(v, key)) continue;
    const k = refusedCodeUnit(key);
    if (k >= 0) found = append(found, { path: [printable(key)], codePoint: k });
    const r = walk((v as Record<string, unknown>)[key], depth + 1);
    if (r === TOO_DEEP) return r;
    if (r) {
      for (let f: Found | undefined = r; f; f = f.next) f.path.push(key);
      found = append(found, r);
    }
  }
  return found;
}

const messageOf = (codePoint: number) => (codePoint === 0 ? DRF.nul : DRF.surrogate(codePoint));
const pointerOf = (path: string[]) => path.map((p) => `/${p.replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');

/** The error for a body, or null when it is fine. */
export function checkBody(body: unknown, api: ApiInterface): ApiError | null {
  if (body === null || (typeof body !== 'object' && typeof body !== 'string')) return null;
  const found = walk(body, 0);
  if (found === null) return null;
  if (found === TOO_DEEP) return badRequest(`The request body is nested too deeply (more than ${MAX_BODY_DEPTH} levels).`);
  const problems: FieldProblem[] = [];
  for (let f: Found | undefined = found; f; f = f.next) {
    f.path.reverse();
    const field = f.path.length ? f.path.join('.') : 'non_field_errors';
    const message = messageOf(f.codePoint);
    // /v1 names a list of strings as its list rules do (`labels`), a member of a listed object with its index (`users.1.email`)
    const v1Field = f.element && f.path.length > 1 ? f.path.slice(0, -1).join('.') : field;
    problems.push({ field, pointer: pointerOf(f.path), message, ...(v1Field !== field ? { v1: { field: v1Field, messages: [message] } } : {}) });
  }
  return new ValidationFailed(problems, api === 'v2' || api === 'authorize' ? 422 : 400);
}

/**
 * Path and query parameters holding a NUL character. A NUL can reach them only percent-encoded
 * (Node's HTTP parser refuses a raw one in the request line), so one search of the raw URL for `%00`
 * is the whole cost of a request without one; only then are the decoded parameters looked at, to
 * name them. A query parameter is refused as each interface refuses a bad parameter (422 on /v2,
 * 400 on /v1 and the OAuth endpoints); a path parameter is a 400 on every interface.
 */
export function checkUrl(req: FastifyRequest): ApiError | null {
  if (req.url.indexOf('%00') === -1) return null;
  const api = apiOf(req);
  const params: FieldProblem[] = [];
  const query: FieldProblem[] = [];
  const look = (values: unknown, into: FieldProblem[]) => {
    if (!values || typeof values !== 'object') return;
    for (const [name, value] of Object.entries(values as Record<string, unknown>)) {
      const hit = name.includes('\u0000') || (Array.isArray(value) ? value.some((x) => typeof x === 'string' && x.includes('\u0000')) : typeof value === 'string' && value.includes('\u0000'));
      if (hit) into.push({ parameter: printable(name), field: printable(name), message: DRF.nul });
    }
  };
  look(req.params, params);
  // an id or a name with a NUL names nothing that can exist: not found, as any id that cannot be decoded (CONVENTIONS §2)
  if (params.length) return notFound();
  // a /v1 read's filters match nothing on an odd value (CONVENTIONS §16: Filter() in v1-rules.ts turns a NUL into NoMatch,
  // answered as the empty list without a statement); its other parameters refuse it by their own rules
  if (api === 'v1' && req.method === 'GET') return null;
  look(req.query, query);
  if (query.length) return new ValidationFailed(query, api === 'v2' || api === 'authorize' || api === 'other' ? 422 : 400);
  return null;
}
