import { AsyncLocalStorage } from 'node:async_hooks';
import type { EntitySubscriberInterface, TransactionCommitEvent, TransactionRollbackEvent } from 'typeorm';
import { conflict } from '../http/api-error';
import { rowsOf } from '../database/sql';
import { scoped } from '../database/scoped';
import type { IdempotencyClaim } from './idempotency.service';

/** What the work's transaction notes so that a retry can rebuild the answer if the process dies before storing it. */
export interface AnswerRef {
  /** a rebuilder registered with IdempotencyService.registerRebuilder, e.g. `v1.purchase` */
  kind: string;
  /** the uuid of what the write created */
  id: string;
}

/** The keyed write the current request is running (set by the interceptor once its claim succeeded). */
export interface KeyedWrite {
  claim: IdempotencyClaim;
  /** the work's transaction committed with the key marked: the key never runs again */
  committed: boolean;
  /** marked in a transaction that has not committed yet */
  marking: boolean;
  ref?: AnswerRef;
  /** fault injection (tests): pause just before the COMMIT */
  pauseBeforeCommit?: (point: string) => Promise<never>;
}

/**
 * The request's keyed write, through the async context of the handler: the interceptor runs the
 * handler inside `keyedWrites.run(...)` (Nest binds each handler call to the async context it is
 * called from), so any transaction the handler's services open sees it, without the request.
 */
export const keyedWrites = new AsyncLocalStorage<KeyedWrite>();

/**
 * Called by a service inside the transaction of a keyed write (no-op otherwise): what to rebuild the
 * answer from if the process dies between the commit and the store of the answer. The commit marker
 * writes it into the key's row in that same transaction.
 */
export function noteAnswerRef(ref: AnswerRef): void {
  const w = keyedWrites.getStore();
  if (w && !w.committed) w.ref = ref;
}

const MARK = `UPDATE idempotency_keys SET committed_at = now(), answer_ref = $3::jsonb
               WHERE organization_id = $org AND lookup = $1 AND claim_id = $2 AND status IS NULL AND committed_at IS NULL
               RETURNING 1`;

/**
 * The commit marker (a TypeORM subscriber on every transaction of the API): just before the COMMIT
 * of the first transaction of a keyed write, one UPDATE in that transaction marks the key committed
 * (with its answer reference). So the key is committed exactly when the work is: a crash after the
 * COMMIT leaves a committed key (never run again), a crash before it rolls both back (the key runs
 * again). The UPDATE names the request's claim: if a retry took the key over meanwhile (the process
 * was taken for dead), it finds no row and the work is rolled back (409), so the work of one key
 * commits at most once. A transaction outside a keyed write costs one AsyncLocalStorage read.
 */
export class CommitMarker implements EntitySubscriberInterface {
  beforeTransactionCommit(e: TransactionCommitEvent): Promise<void> | void {
    const w = keyedWrites.getStore();
    if (w === undefined || w.committed || w.marking) return;
    // a savepoint (nested transaction) is not the commit
    if (((e.queryRunner as unknown as { transactionDepth?: number }).transactionDepth ?? 1) > 1) return;
    return this.mark(e, w);
  }

  private async mark(e: TransactionCommitEvent, w: KeyedWrite): Promise<void> {
    const c = w.claim;
    w.marking = true; // before the await: another transaction of the request committing meanwhile does not mark again
    const rows = rowsOf<unknown>(await scoped(e.manager, c.organizationId).query<unknown>(MARK, [c.lookup, c.claimId, w.ref ? JSON.stringify(w.ref) : null]));
    if (!rows.length) throw conflict('This Idempotency-Key was taken over by a retry of the request; this attempt is rolled back.');
    if (w.pauseBeforeCommit) await w.pauseBeforeCommit('before-commit');
  }

  afterTransactionCommit(): void {
    const w = keyedWrites.getStore();
    if (w?.marking) {
      w.marking = false;
      w.committed = true;
    }
  }

  afterTransactionRollback(_e: TransactionRollbackEvent): void {
    const w = keyedWrites.getStore();
    if (w?.marking) w.marking = false;
  }
}
