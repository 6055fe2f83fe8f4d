import { ValidationFailed } from './api-error';
import { dateTimeParam } from './query-params';

/**
 * A date-time member of a /v2 enrollment body: ISO 8601 with a timezone offset (as the list
 * filters require), or null. The problem names the member's pointer, for a batch item's error or
 * a request-level 422.
 */
export function itemDateTime(value: string | null | undefined, pointer: string): { value: Date | null } | { error: string; pointer: string } {
  if (value === null || value === undefined) return { value: null };
  const name = pointer.split('/').pop()!;
  try {
    return { value: dateTimeParam({ [name]: value }, name, true) ?? null };
  } catch (err) {
    if (!(err instanceof ValidationFailed)) throw err;
    return { error: err.detail, pointer };
  }
}
