import type { ItemOutcome, ValidItem } from '../batch/batch';
import { decodeId, IdType } from '../ids/ids';

/** The outcome of a /v2 batch item whose id names no `<what>` of the organization (`Group` → "Group not found."), pointing at the id. */
export const itemNotFound = (what: string) => ({ ok: false, code: 'not_found', detail: `${what} not found.`, pointer: '/id' }) as const;

/**
 * The items of a /v2 batch about existing rows (update, delete), in order, each with the uuid its
 * `id` decodes to as `idType`; an item whose id decodes to nothing gets `notFound` in `out` and is
 * left out.
 */
export function itemsWithIds<I extends { id?: string | null }, R>(
  items: ValidItem<I>[],
  idType: IdType,
  notFound: ItemOutcome<R>,
  out: Map<number, ItemOutcome<R>>,
): { v: ValidItem<I>; id: string }[] {
  const found: { v: ValidItem<I>; id: string }[] = [];
  for (const v of items) {
    const id = decodeId(idType, v.item.id);
    if (!id) out.set(v.index, notFound);
    else found.push({ v, id });
  }
  return found;
}
