import { ValidationFailed } from '../http/api-error';
import { dateTimeParam } from '../http/query-params';
import type { V1PageRequest } from './v1-page';

/**
 * /v1 `updated_since` (CONVENTIONS §20, an extension of the published lists): an RFC 3339 time
 * with an offset; a bad value is 400 `{"updated_since": ["..."]}` as Django REST framework answers.
 * The list is then ordered by last change ((updated_at, id), served by an index).
 */
export function v1UpdatedSince(query: Record<string, unknown>): Date | undefined {
  try {
    return dateTimeParam(query, 'updated_since', true);
  } catch {
    throw new ValidationFailed([{ field: 'updated_since', message: 'Datetime has wrong format. Use an RFC 3339 date-time with an offset, e.g. 2026-01-01T00:00:00Z.' }], 400);
  }
}

/** The /v1 `updated_since` query parameter as the OpenAPI document declares it (an extension of the published lists). */
export const V1_UPDATED_SINCE_QUERY = {
  name: 'updated_since',
  required: false,
  schema: { type: 'string' as const, format: 'date-time' },
  description: 'extension: changed at or after (RFC 3339 with an offset); the list is then ordered by last change',
};

/**
 * The SQL of a /v1 list page's `updated_since` (V1PageRequest.updatedSince, set by @V1Resource):
 * `and`, the condition `AND <at> >= $<n>` (empty without it) with its `params`, and `order`, the
 * list's ORDER BY: by last change `(<at>, <id>)` with it, else the list's own `order`. The list's
 * table needs an index ending in `(<at>, <id>)` (docs/decisions/data-out.md).
 */
export function v1SinceSql(page: V1PageRequest, at: string, n: number, order: string, id = at.replace(/[a-z_]+$/, 'id')): { and: string; params: unknown[]; order: string } {
  const since = page.updatedSince;
  if (since === undefined) return { and: '', params: [], order };
  return { and: ` AND ${at} >= $${n}`, params: [since], order: `${at}, ${id}` };
}
