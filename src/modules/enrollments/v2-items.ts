import type { ItemOutcome, ValidItem } from '../../core/batch/batch';
import { itemNotFound, itemsWithIds } from '../../core/routes/v2-item-ids';

/** The outcome of an item whose id is no enrollment of the organization (or is no longer one when written). */
export const ENROLLMENT_NOT_FOUND = itemNotFound('Enrollment');

/**
 * The items of a /v2 batch about existing enrollments (update, completion), in order, each with the
 * enrollment uuid its id decodes to and the attributes it sent (for "omitted vs null"); an item
 * whose id decodes to nothing gets its not_found in `out` and is left out.
 */
export function enrollmentItems<I extends { id: string }, R>(items: ValidItem<I>[], out: Map<number, ItemOutcome<R>>): { v: ValidItem<I>; id: string; sent: Record<string, unknown> }[] {
  return itemsWithIds(items, 'enrollment', ENROLLMENT_NOT_FOUND, out).map(({ v, id }) => ({ v, id, sent: (v.raw.attributes ?? {}) as Record<string, unknown> }));
}
