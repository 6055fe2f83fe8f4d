import { ApiError, badRequest, ValidationFailed } from './api-error';
import { DRF } from './drf-messages';
import type { ApiInterface } from './interfaces';

/**
 * Checks every parsed request body (whatever parser made it: JSON, JSON:API, merge-patch, forms)
 * before any route code sees it:
 * - nesting deeper than MAX_BODY_DEPTH objects/arrays is a 400 in the interface's envelope (JSON.parse
 *   copes with 3,000 levels; class-transformer and class-validator recurse and overflow the stack);
 * - a string (or member name) holding a lone UTF-16 surrogate (`"\ud800"` is valid JSON, but not
 *   Unicode: PostgreSQL refuses it in jsonb, and text columns would silently get U+FFFD) is a field
 *   error naming the member, with Django REST framework's message: 400 `{"field": [...]}` on /v1,
 *   422 `validation_error` with a pointer on /v2, `invalid_request` on the OAuth endpoints. Nothing
 *   is stored.
 * The walk stops at the depth cap, so it never recurses deeper than MAX_BODY_DEPTH frames.
 */
export const MAX_BODY_DEPTH = 64;

interface Found {
  /** member names and indexes from the innermost out (reversed once at the top) */
  path: string[];
  codePoint: number;
}

const TOO_DEEP = Symbol('too deep');

const wellFormed = (s: string): boolean => (s as unknown as { isWellFormed(): boolean }).isWellFormed();

/** A lone surrogate in `s` (its code unit), or -1. */
function loneSurrogate(s: string): number {
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

/** Printable form of a member name holding a lone surrogate (U+FFFD in its place). */
const printable = (s: string) => s.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');

/** No allocation unless something is found; recursion never deeper than MAX_BODY_DEPTH. */
function walk(v: unknown, depth: number): Found | typeof TOO_DEEP | null {
  if (typeof v === 'string') {
    const c = loneSurrogate(v);
    return c < 0 ? null : { path: [], codePoint: c };
  }
  if (v === null || typeof v !== 'object') return null;
  if (depth >= MAX_BODY_DEPTH) return TOO_DEEP;
  let first: Found | null = null;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const r = walk(v[i], depth + 1);
      if (r === TOO_DEEP) return r;
      if (r && !first) {
        r.path.push(String(i));
        first = r;
      }
    }
    return first;
  }
  for (const key in v as Record<string, unknown>) {
    if (!Object.prototype.hasOwnProperty.call(v, key)) continue;
    const k = loneSurrogate(key);
    if (k >= 0 && !first) first = { path: [printable(key)], codePoint: k };
    const r = walk((v as Record<string, unknown>)[key], depth + 1);
    if (r === TOO_DEEP) return r;
    if (r && !first) {
      r.path.push(key);
      first = r;
    }
  }
  return first;
}

/** The error for a body, or null when it is fine. */
export function checkBody(body: unknown, api: ApiInterface): ApiError | null {
  if (body === null || (typeof body !== 'object' && typeof body !== 'string')) return null;
  const found = walk(body, 0);
  if (found === null) return null;
  if (found === TOO_DEEP) return badRequest(`The request body is nested too deeply (more than ${MAX_BODY_DEPTH} levels).`);
  found.path.reverse();
  const field = found.path.length ? found.path.join('.') : 'non_field_errors';
  const message = DRF.surrogate(found.codePoint);
  const pointer = found.path.map((p) => `/${p.replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
  return new ValidationFailed([{ field, pointer, message }], api === 'v2' || api === 'authorize' ? 422 : 400);
}
