import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { DataSource, EntityManager } from 'typeorm';
import type { Principal } from '../auth/principal';
import { AppConfig } from '../config/config';
import { decryptBytes, encryptBytes } from '../crypto/crypto';
import { poolQuery } from '../database/pool-reads';
import { bindOrg, scoped } from '../database/scoped';
import { AnswerRef, CommitMarker } from './keyed-write';

/**
 * A claim still unanswered after this long, although its process is alive, is taken as abandoned
 * (e.g. the database went away between the work and the store): run again if its work did not
 * commit, answered from its answer reference if it did. A claim of a dead process does not wait
 * for it (its owner lease is gone). Far longer than any write of this API takes.
 */
export const IN_FLIGHT_ABANDONED_AFTER_SECONDS = 300;

/** The one row a request owns once its claim succeeded. */
export interface IdempotencyClaim {
  organizationId: string;
  lookup: Buffer;
  claimId: string;
}

/** An answer rebuilt from what the work's transaction noted (AnswerRef): the status and the JSON body. */
export type Rebuilder = (organizationId: string, id: string) => Promise<{ status: number; body: unknown } | null>;

export type ClaimOutcome =
  | { kind: 'claimed'; claim: IdempotencyClaim }
  /** the first request with this key has not answered yet */
  | { kind: 'in_flight' }
  /**
   * the first request's work committed but its process died (or the claim aged) before the answer
   * was stored: the work never runs again; the answer is rebuilt from `ref` when there is one
   */
  | { kind: 'lost'; claim: IdempotencyClaim; ref: AnswerRef | null }
  /** the key was first used with another body or query string */
  | { kind: 'mismatch' }
  | { kind: 'replay'; status: number; headers: Record<string, string>; body: Buffer };

/** Response headers stored with the answer and sent again on a replay. */
export const STORED_HEADERS = ['content-type', 'location'] as const;

/**
 * JSON members whose value is a secret shown once (a client's secret, a webhook's signing secret, an
 * invite's token and link, an API key, OAuth tokens). An answer naming one is stored encrypted
 * (`sealed`), never in plain text; other answers are stored as sent, so that anonymization can find
 * the ones that show a person with one statement.
 */
const SECRET_MEMBERS = ['client_secret', 'secret', 'token', 'invite_url', 'api_key', 'access_token', 'refresh_token', 'password'];
/** Any of them, quoted, anywhere in the text: one scan instead of one per name. */
const SECRET_MEMBER = new RegExp(`"(?:${SECRET_MEMBERS.join('|')})"`);

/**
 * True when a stored answer would hold a secret (a member named like one appears in it). Given the
 * payload as the string it was sent as (before its UTF-8 encoding) or as bytes: the names are ASCII,
 * and an ASCII run appears in a string exactly when it appears in its UTF-8 bytes (every byte of a
 * multi-byte sequence is >= 0x80), as in the bytes read as latin1.
 */
export function holdsSecret(body: Buffer | string): boolean {
  return SECRET_MEMBER.test(typeof body === 'string' ? body : body.toString('latin1'));
}

/** pg's Pool under TypeORM's postgres driver (what its QueryRunners take connections from). */

/**
 * The claim and the store, the two statements of every keyed write, as pg named (prepared)
 * statements: parsed and planned once per pooled connection, and sent straight to TypeORM's pg pool
 * (no QueryRunner per statement), as StudentsService sends its hot reads. Fixed texts with `$org`
 * bound last by bindOrg, exactly as scoped() binds it; DATABASE_LOG_QUERIES still logs them through
 * TypeORM's logger.
 */
const CLAIM = {
  name: 'idempotency_claim_v2',
  // takeover: an expired row, or an unanswered claim whose work did not commit and whose process is
  // gone (its lease lock is free: pg_try_advisory_xact_lock succeeds, held to the end of this
  // statement only) or which aged past $5. The second branch reads an existing row, and whether
  // its process is gone, for a committed, unanswered claim.
  sql: `WITH claim AS (
           INSERT INTO idempotency_keys AS k (organization_id, lookup, claim_id, fingerprint, expires_at, owner)
           VALUES ($org, $1, $2, $3, now() + make_interval(secs => $4), $6)
           ON CONFLICT (organization_id, lookup) DO UPDATE
              SET claim_id = EXCLUDED.claim_id, fingerprint = EXCLUDED.fingerprint, status = NULL, headers = NULL, body = NULL, sealed = false,
                  created_at = now(), expires_at = EXCLUDED.expires_at, owner = EXCLUDED.owner, committed_at = NULL, answer_ref = NULL
            WHERE k.expires_at <= now()
               OR (k.status IS NULL AND k.committed_at IS NULL
                   AND (k.created_at < now() - make_interval(secs => $5) OR pg_try_advisory_xact_lock(k.owner)))
           RETURNING 1
         )
         SELECT true AS claimed, NULL::bytea AS fingerprint, NULL::smallint AS status, NULL::jsonb AS headers, NULL::bytea AS body, NULL::boolean AS sealed,
                NULL::uuid AS claim_id, NULL::jsonb AS answer_ref, false AS lost FROM claim
         UNION ALL
         SELECT false, k.fingerprint, k.status, k.headers, k.body, k.sealed, k.claim_id, k.answer_ref,
                (k.status IS NULL AND k.committed_at IS NOT NULL
                 AND (k.created_at < now() - make_interval(secs => $5) OR coalesce(pg_try_advisory_xact_lock(k.owner), false))) FROM idempotency_keys k
          WHERE k.organization_id = $org AND k.lookup = $1 AND NOT EXISTS (SELECT 1 FROM claim)`,
};
const COMPLETE = {
  name: 'idempotency_complete',
  sql: `UPDATE idempotency_keys SET status = $3, headers = $4, body = $5, sealed = $6 WHERE organization_id = $org AND lookup = $1 AND claim_id = $2`,
};
/** After a 5xx: give the key back, unless its work committed (then it must never run again). */
const RELEASE = `DELETE FROM idempotency_keys WHERE organization_id = $org AND lookup = $1 AND claim_id = $2 AND committed_at IS NULL`;

/**
 * Idempotency-Key records (CONVENTIONS §14), kept in PostgreSQL per organization. One row per
 * (organization, SHA-256 of caller + method + path + key). Statements per write with the header:
 * the claim (which also reads the stored answer of a repeat, in the same statement) and the store
 * (or, after a 5xx, the release). Without the header: none.
 */
@Injectable()
export class IdempotencyService implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(IdempotencyService.name);
  /** this process's lease: the advisory-lock key its claims carry as `owner` (held while `lease` is connected) */
  private owner = IdempotencyService.newOwnerKey();
  private lease: Client | null = null;
  private leaseTimer: NodeJS.Timeout | null = null;
  private closing = false;
  private readonly marker = new CommitMarker();
  private readonly rebuilders = new Map<string, Rebuilder>();

  constructor(
    private readonly ds: DataSource,
    private readonly config: AppConfig,
  ) {}

  /** A positive bigint (as text) for the lease's advisory lock; a new one per connection of the lease. */
  private static newOwnerKey(): string {
    return (randomBytes(8).readBigUInt64BE() >> 2n).toString();
  }

  /**
   * The owner lease: one session-level advisory lock on a connection of its own (not the pool's),
   * held for the life of the process. PostgreSQL releases it the moment the process dies (its
   * sessions end with it), which is how a retry tells "in flight" from "died" without waiting.
   * The commit marker is registered on the data source here (API process only).
   */
  async onModuleInit(): Promise<void> {
    if (!this.ds.subscribers.includes(this.marker)) this.ds.subscribers.push(this.marker);
    await this.takeLease();
  }

  async onModuleDestroy(): Promise<void> {
    this.closing = true;
    if (this.leaseTimer) clearTimeout(this.leaseTimer);
    const i = this.ds.subscribers.indexOf(this.marker);
    if (i >= 0) this.ds.subscribers.splice(i, 1);
    const lease = this.lease;
    this.lease = null;
    await lease?.end().catch(() => undefined);
  }

  private async takeLease(): Promise<void> {
    if (this.closing) return;
    const owner = IdempotencyService.newOwnerKey();
    const client = new Client({ connectionString: this.config.APP_DATABASE_URL, connectionTimeoutMillis: this.config.DATABASE_CONNECT_TIMEOUT_MS, application_name: 'idempotency-lease' });
    const retry = () => {
      if (this.lease === client) this.lease = null;
      client.end().catch(() => undefined);
      if (!this.closing && !this.leaseTimer) this.leaseTimer = setTimeout(() => ((this.leaseTimer = null), void this.takeLease()), 1000);
    };
    client.on('error', retry);
    client.on('end', retry);
    try {
      await client.connect();
      await client.query('SELECT pg_advisory_lock($1::bigint)', [owner]);
      if (this.closing) return void client.end().catch(() => undefined);
      // claims made from now on name this lease; older ones named a lease that is gone (taken for
      // dead: a retry may take them over, and the commit marker lets at most one of the two commit)
      this.owner = owner;
      this.lease = client;
    } catch (err) {
      this.logger.warn({ err }, 'could not take the Idempotency-Key owner lease; retrying');
      retry();
    }
  }

  /** A rebuilder of answers for an AnswerRef kind (e.g. `v1.purchase`), registered by the module that notes such refs. */
  registerRebuilder(kind: string, rebuild: Rebuilder): void {
    this.rebuilders.set(kind, rebuild);
  }

  /** One of the fixed statements above, prepared, for `organizationId` (bound as `$org`). */
  private async prepared(organizationId: string, statement: { name: string; sql: string }, params: unknown[]): Promise<any[]> {
    return poolQuery<any>(this.ds, { name: statement.name, text: bindOrg(statement.sql, params.length), values: [...params, organizationId] });
  }

  /** The caller a key belongs to: the OAuth client and token subject, or the organization's API key. */
  static callerOf(p: Principal): string {
    return p.kind === 'api_key' ? 'api-key' : `client:${p.clientId ?? ''}:${p.subject}`;
  }

  static lookupOf(caller: string, method: string, path: string, key: string): Buffer {
    return createHash('sha256').update(caller).update('\0').update(method).update('\0').update(path).update('\0').update(key).digest();
  }

  /**
   * One statement: insert the claim, or take over an expired or abandoned row, or else read the row
   * that holds the key. The unique primary key decides between concurrent requests: exactly one
   * inserts; the others see its row (or, when it committed after their snapshot, no row at all:
   * it is then in flight by construction).
   */
  async claim(p: Principal, method: string, path: string, key: string, fingerprint: Buffer): Promise<ClaimOutcome> {
    const lookup = IdempotencyService.lookupOf(IdempotencyService.callerOf(p), method, path, key);
    const claimId = randomUUID();
    const rows: Array<{
      claimed: boolean;
      fingerprint: Buffer | null;
      status: number | null;
      headers: Record<string, string> | null;
      body: Buffer | null;
      sealed: boolean | null;
      claim_id: string | null;
      answer_ref: AnswerRef | null;
      lost: boolean;
    }> = await this.prepared(p.organizationId, CLAIM, [lookup, claimId, fingerprint, this.config.IDEMPOTENCY_KEY_TTL_SECONDS, IN_FLIGHT_ABANDONED_AFTER_SECONDS, this.owner]);
    const row = rows[0];
    if (!row) return { kind: 'in_flight' };
    if (row.claimed) return { kind: 'claimed', claim: { organizationId: p.organizationId, lookup, claimId } };
    if (!row.fingerprint!.equals(fingerprint)) return { kind: 'mismatch' };
    if (row.status === null) {
      return row.lost ? { kind: 'lost', claim: { organizationId: p.organizationId, lookup, claimId: row.claim_id! }, ref: row.answer_ref } : { kind: 'in_flight' };
    }
    const body = row.body ?? Buffer.alloc(0);
    return { kind: 'replay', status: row.status, headers: row.headers ?? {}, body: row.sealed ? decryptBytes(this.config.APP_SECRET, body) : body };
  }

  /**
   * The answer of a key whose work committed but whose answer was never stored: rebuilt from its
   * answer reference (and stored, so later repeats replay these bytes), or null when it cannot be
   * (no reference, no rebuilder, the object is gone).
   */
  async rebuild(c: IdempotencyClaim, ref: AnswerRef | null): Promise<{ status: number; headers: Record<string, string>; body: Buffer } | null> {
    const rebuilder = ref ? this.rebuilders.get(ref.kind) : undefined;
    const answer = ref && rebuilder ? await rebuilder(c.organizationId, ref.id) : null;
    if (!answer) return null;
    const headers = { 'content-type': 'application/json; charset=utf-8' };
    const body = Buffer.from(JSON.stringify(answer.body));
    await this.complete(c, answer.status, headers, body);
    return { status: answer.status, headers, body };
  }

  /**
   * Store the answer of a claimed request (the exact bytes sent; encrypted when it holds a secret).
   * `sealed`: holdsSecret of the answer when the caller already knows it (it scanned the payload
   * string before encoding it).
   */
  async complete(c: IdempotencyClaim, status: number, headers: Record<string, string>, body: Buffer, sealed = holdsSecret(body)): Promise<void> {
    await this.prepared(c.organizationId, COMPLETE, [c.lookup, c.claimId, status, JSON.stringify(headers), sealed ? encryptBytes(this.config.APP_SECRET, body) : body, sealed]);
  }

  /**
   * Forget the finished answers of an organization that show any of `needles` (a person's email and
   * names, on anonymization): a retry of such a write runs again instead of replaying personal data.
   * Plain answers are searched by the database; sealed ones (few: only answers holding a secret) are
   * decrypted here.
   */
  static async forgetAnswersShowing(m: EntityManager, appSecret: string, organizationId: string, needles: string[]): Promise<void> {
    if (!needles.length) return;
    const db = scoped(m, organizationId);
    await db.query(
      `DELETE FROM idempotency_keys
        WHERE organization_id = $org AND status IS NOT NULL AND body IS NOT NULL AND NOT sealed
          AND EXISTS (SELECT 1 FROM unnest($1::text[]) AS n(s) WHERE position(convert_to(n.s, 'UTF8') IN body) > 0)`,
      [needles],
    );
    const sealed: Array<{ lookup: Buffer; body: Buffer }> = await db.query(`SELECT lookup, body FROM idempotency_keys WHERE organization_id = $org AND sealed AND body IS NOT NULL`);
    const showing = sealed.filter((r) => {
      const plain = decryptBytes(appSecret, r.body);
      return needles.some((n) => plain.includes(Buffer.from(n)));
    });
    if (showing.length) {
      await db.query(`DELETE FROM idempotency_keys WHERE organization_id = $org AND lookup = ANY($1::bytea[])`, [showing.map((r) => r.lookup)]);
    }
  }

  /**
   * Give the key back (after a 5xx): a retry with it runs again. Not when the work committed (a
   * failure after the commit): the key then stays unanswered and a retry gets 409, then, once the
   * claim is abandoned, the answer rebuilt from its reference.
   */
  async release(c: IdempotencyClaim): Promise<void> {
    await scoped(this.ds, c.organizationId).query(RELEASE, [c.lookup, c.claimId]);
  }

  /** Fault injection (tests, NODE_ENV=test only): the configured pause point, or undefined. */
  get fault(): AppConfig['IDEMPOTENCY_FAULT'] {
    return this.config.NODE_ENV === 'test' ? this.config.IDEMPOTENCY_FAULT : undefined;
  }

  /** Store or release, never throwing: the answer goes out either way (an unstored claim is abandoned after IN_FLIGHT_ABANDONED_AFTER_SECONDS). */
  async finish(c: IdempotencyClaim, status: number, headers: Record<string, string>, body: Buffer | null, sealed?: boolean): Promise<void> {
    try {
      if (status >= 500 || body === null) await this.release(c);
      else await this.complete(c, status, headers, body, sealed);
    } catch (err) {
      this.logger.error({ err, status }, 'could not store the answer of an Idempotency-Key request');
    }
  }
}
