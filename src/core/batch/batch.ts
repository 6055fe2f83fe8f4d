import { Logger } from '@nestjs/common';
import { ClassConstructor, plainToInstance } from 'class-transformer';
import { isDatabaseUnavailable } from '../database/unavailable';
import { ApiError, isBadInputDbError } from '../http/api-error';
import { transformValid, validateWhitelisted } from '../http/fast-validate';
import { toProblems } from '../http/validation.pipe';
import { nextTurn } from '../http/next-turn';

/**
 * The /v2 batch engine: every batch endpoint goes through runBatch.
 *  1. the envelope `{"data": [...]}` holds 1..maxItems items, else 400;
 *  2. items whose dedupe key repeats an earlier item's are `duplicate_in_batch` (first wins) and never processed;
 *  3. each item is validated against its DTO class, failures carry a JSON pointer (`/data/3/attributes/email`);
 *  4. the valid items are handed to the service as one set;
 *  5. if that set-wise call throws unexpectedly, each item is retried alone so that one bad item
 *     fails as `internal_error` without failing the others (each call must be atomic per item);
 *  6. the result is 200 when every item succeeded, 207 otherwise, items in request order.
 */
/** `not_in_domain` and `already_enrolled`: the published bulk-enroll's own codes; `already_published`: the publish batch's (BatchItemError). */
export type ItemCode = 'not_found' | 'validation_error' | 'duplicate_in_batch' | 'internal_error' | 'conflict' | 'not_in_domain' | 'already_enrolled' | 'already_published';

export type ItemOutcome<R> = { ok: true; id: string; result?: R; deleted?: boolean } | { ok: false; code: ItemCode; detail: string; pointer?: string };

export interface ValidItem<T> {
  index: number;
  item: T;
  /** the item as sent (before transformation), for presence checks such as "omitted vs null" */
  raw: Record<string, any>;
}

export type BatchHandler<T, R> = (items: ValidItem<T>[]) => Promise<Map<number, ItemOutcome<R>>>;

export interface BatchSpec<T> {
  itemClass: ClassConstructor<T>;
  /** the JSON:API `type` every item must carry */
  type: string;
  /** a key that marks later repeats as duplicate_in_batch; undefined = no dedupe for that item */
  dedupeKey?: (raw: Record<string, any>) => string | undefined;
  /** pointer (relative to the item) of the member that repeats, e.g. `/attributes/email` */
  dedupePointer?: string;
  maxItems: number;
  /** optional: a hand-written check of the common item, answering the item exactly as validation would (or undefined: the usual way) */
  quickItem?: (raw: Record<string, any>) => T | undefined;
}

export interface BatchItemResult<R> {
  status: 'succeeded' | 'failed' | 'deleted';
  id: string | null;
  result?: R;
  error?: { code: ItemCode; detail: string; source: { pointer: string } };
}

export interface BatchResult<R> {
  status: 200 | 207;
  body: { data: BatchItemResult<R>[]; summary: { total: number; succeeded: number; failed: number } };
}

const logger = new Logger('Batch');

/** Check the envelope; returns the raw items. */
export function batchItems(body: unknown, maxItems: number): unknown[] {
  const data = (body as any)?.data;
  if (body === null || typeof body !== 'object' || !Array.isArray(data)) {
    throw new ApiError(400, 'The request body must be an object with a "data" array of items.', { source: { pointer: '/data' } });
  }
  if (data.length < 1 || data.length > maxItems) {
    throw new ApiError(400, `A batch holds from 1 to ${maxItems} items; this one has ${data.length}.`, { source: { pointer: '/data' } });
  }
  return data;
}

export async function runBatch<T, R>(body: unknown, spec: BatchSpec<T>, handler: BatchHandler<T, R>): Promise<BatchResult<R>> {
  const raws = batchItems(body, spec.maxItems);
  // a turn of the loop of its own for validating the items, another for presenting the results
  // (milliseconds each for 100 items): keeps loop iterations short under load (core/http/next-turn.ts)
  await nextTurn();
  const outcomes = new Map<number, ItemOutcome<R>>();
  const seen = new Map<string, number>();
  const valid: ValidItem<T>[] = [];

  raws.forEach((raw, index) => {
    const base = `/data/${index}`;
    if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
      outcomes.set(index, { ok: false, code: 'validation_error', detail: 'Each item must be an object.', pointer: base });
      return;
    }
    const r = raw as Record<string, any>;
    if (r.type !== spec.type) {
      outcomes.set(index, { ok: false, code: 'validation_error', detail: `type must be "${spec.type}".`, pointer: `${base}/type` });
      return;
    }
    if ('attributes' in r && (r.attributes === null || typeof r.attributes !== 'object' || Array.isArray(r.attributes))) {
      outcomes.set(index, { ok: false, code: 'validation_error', detail: 'attributes must be an object.', pointer: `${base}/attributes` });
      return;
    }
    const key = spec.dedupeKey?.(r);
    if (key !== undefined) {
      const first = seen.get(key);
      if (first !== undefined) {
        outcomes.set(index, {
          ok: false,
          code: 'duplicate_in_batch',
          detail: `Duplicate of item ${first} in this batch; only the first occurrence is processed.`,
          pointer: `${base}${spec.dedupePointer ?? ''}`,
        });
        return;
      }
      seen.set(key, index);
    }
    // the compiled way for a valid item of a simple class; class-transformer and class-validator otherwise (their errors)
    let item = spec.quickItem?.(r) ?? transformValid(spec.itemClass, r);
    if (item === undefined) {
      item = plainToInstance(spec.itemClass, r, { exposeDefaultValues: true });
      const errors = validateWhitelisted(item as object);
      if (errors.length) {
        const [p] = toProblems(errors, 'custom', base);
        outcomes.set(index, { ok: false, code: 'validation_error', detail: `${p.field}: ${p.message}`, pointer: p.pointer });
        return;
      }
    }
    valid.push({ index, item, raw: r });
  });

  if (valid.length) {
    let results: Map<number, ItemOutcome<R>>;
    try {
      results = await handler(valid);
      await nextTurn();
    } catch (err) {
      if (isDatabaseUnavailable(err)) throw err; // the whole request answers 503
      logger.warn({ err: (err as Error).message }, 'set-wise batch failed; retrying items one by one');
      results = new Map();
      for (const v of valid) {
        try {
          const one = await handler([v]);
          const out = one.get(v.index);
          if (out) results.set(v.index, out);
        } catch (e) {
          if (isDatabaseUnavailable(e)) throw e;
          if (isBadInputDbError(e)) {
            results.set(v.index, { ok: false, code: 'validation_error', detail: 'The item contains a value that cannot be stored (for example a NUL character or an out-of-range number).' });
          } else {
            logger.error({ err: e }, 'batch item failed');
            results.set(v.index, { ok: false, code: 'internal_error', detail: 'An unexpected error occurred while processing this item.' });
          }
        }
      }
    }
    for (const v of valid) {
      const o = results.get(v.index) ?? { ok: false, code: 'internal_error', detail: 'The item was not processed.' };
      // handlers give pointers relative to their item (`/id`, `/attributes/email`)
      outcomes.set(v.index, o.ok ? o : { ...o, pointer: `/data/${v.index}${o.pointer ?? ''}` });
    }
  }

  const data: BatchItemResult<R>[] = raws.map((_, index) => {
    const o = outcomes.get(index)!;
    if (o.ok) return o.deleted ? { status: 'deleted', id: o.id } : { status: 'succeeded', id: o.id, result: o.result };
    return { status: 'failed', id: null, error: { code: o.code, detail: o.detail, source: { pointer: o.pointer ?? `/data/${index}` } } };
  });
  const failed = data.filter((d) => d.status === 'failed').length;
  logger.debug({ total: data.length, failed }, 'batch processed');
  return {
    status: failed ? 207 : 200,
    body: { data, summary: { total: data.length, succeeded: data.length - failed, failed } },
  };
}

/**
 * The outcomes with each result presented (`present(result, id)`), in the same order: a service
 * answers the rows it wrote, its controller presents them (docs/decisions/module-graph.md).
 */
export function presentResults<R, S>(outcomes: Map<number, ItemOutcome<R>>, present: (r: R, id: string) => S): Map<number, ItemOutcome<S>> {
  const out = new Map<number, ItemOutcome<S>>();
  for (const [i, o] of outcomes) out.set(i, o.ok && o.result !== undefined ? { ...o, result: present(o.result, o.id) } : (o as ItemOutcome<S>));
  return out;
}
