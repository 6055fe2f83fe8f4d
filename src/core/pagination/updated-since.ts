import { ValidationFailed } from '../http/api-error';
import { dateTimeParam } from '../http/query-params';

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
