import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { Principal } from '../../core/auth/principal';
import type { ItemOutcome, ValidItem } from '../../core/batch/batch';
import { poolQuery, TEXT_TIMESTAMPS } from '../../core/database/pool-reads';
import { bindOrg } from '../../core/database/scoped';
import { isDatabaseUnavailable } from '../../core/database/unavailable';
import { decodeId, encodeId, newUuid } from '../../core/ids/ids';
import type { StudentCreateItem, StudentUpdateItem } from './dto/student-batch.dto';
import { STUDENT_COLUMNS } from './student.entity';
import type { StudentRow } from './students.shape';
import { NOW, studentExternalId } from './students.service';

/** An item's outcome: the row the statement returned; the controller presents it (presentStudentResource with the outcome's id). */
type Outcome = ItemOutcome<StudentRow>;
const fail = (code: 'not_found' | 'validation_error' | 'duplicate_in_batch', detail: string, pointer: string): Outcome => ({ ok: false, code, detail, pointer });
/** A row the statement returned (STUDENT_COLUMNS, timestamps as pg's text); `publicId`: its public id when known. */
const ok = (row: any, publicId: string = encodeId('student', row.id)): Outcome => ({ ok: true, id: publicId, result: row });
/**
 * The uuids behind the public ids update items named, remembered per id (bounded as encodeId's memo
 * is): a client updating students sends the same ids again and again, and decodeId's BigInt
 * arithmetic (about 1 us an id) was the largest part of a batch update's own code. Only an id that
 * is encodeId's own answer for its uuid is remembered, so such an id is also the public id the
 * updated student is presented with (no encoding either).
 */
const knownIds = new Map<string, string>();
const KNOWN_IDS_LIMIT = 20_000;
function rememberId(publicId: string, uuid: string): void {
  if (knownIds.size >= KNOWN_IDS_LIMIT) knownIds.clear();
  knownIds.set(publicId, uuid);
}

/** pg's Pool under TypeORM's postgres driver. */

/** An update item once checked: the student it names (uuid or email) and its changes. */
interface Pending {
  index: number;
  uuid?: string;
  email?: string;
  firstName?: string;
  lastName?: string;
  isInactive?: boolean;
  /** the student's uuid once resolved */
  id?: string;
  /** the item's `id` when it is the student's public id as encodeId writes it (the answer's id) */
  publicId?: string;
}

/** What the update rules read of a student. */
const LOOKUP = 'id, email, is_inactive, is_anonymized, sso_provider';
type Looked = { id: string; email: string; is_inactive: boolean; is_anonymized: boolean; sso_provider: string | null };
const RETURNING = STUDENT_COLUMNS.split(', ')
  .map((c) => `u.${c}`)
  .join(', ');

/** The state rules of an update (the UPDATE's guards repeat them): the item's failure, or undefined when the student may be changed. */
function stateRefusal(q: Pending, s: Looked, ptr: string): Outcome | undefined {
  if (s.is_anonymized) return fail('validation_error', 'An anonymized student cannot be updated.', ptr);
  if (s.sso_provider !== null) return fail('validation_error', 'A single-sign-on student cannot be updated.', ptr);
  const reactivation = q.isInactive === false && q.firstName === undefined && q.lastName === undefined;
  if (s.is_inactive && !reactivation) {
    return fail('validation_error', 'An inactive student cannot be updated; reactivate first with an item carrying only is_inactive: false.', ptr);
  }
  return undefined;
}

/** A student the rules let through that the UPDATE's guards then refused (a concurrent change). */
const changedMeanwhile = (ptr: string) => fail('validation_error', 'The student changed state meanwhile (deactivated, anonymized or single-sign-on) and was not updated.', ptr);

/**
 * The /v2 students batch writes (POST and PATCH /v2/students). Set-wise: create is one INSERT,
 * update one SELECT plus one UPDATE, whatever the batch size; every statement filters on the
 * caller's organization.
 */
@Injectable()
export class StudentsBatchService {
  constructor(private readonly ds: DataSource) {}

  /**
   * One statement of the caller's organization (`$org` bound last, as scoped() binds it), sent
   * straight to TypeORM's pg pool as poolRead sends the hot reads (no QueryRunner per statement),
   * timestamps left as pg's text (TEXT_TIMESTAMPS: only created_at is presented, through
   * studentRowJoined, and the other four are never parsed). Its rows. Logged through TypeORM's
   * logger, a failure thrown as TypeORM's QueryFailedError, as ds.query does (poolQuery, the one pool
   * path: the driver's error looked through by isDatabaseUnavailable, its code read by runBatch).
   */
  private async run(p: Principal, sql: string, params: unknown[]): Promise<any[]> {
    return poolQuery<any>(this.ds, { text: bindOrg(sql, params.length), values: [...params, p.organizationId], types: TEXT_TIMESTAMPS });
  }

  /**
   * Batch create: one INSERT ... ON CONFLICT DO NOTHING on the (organization_id, lower(email))
   * index. A row that conflicts (the email exists in the organization, or a concurrent request
   * just created it) is not returned and fails as validation_error on /attributes/email.
   */
  async createMany(p: Principal, items: ValidItem<StudentCreateItem>[]): Promise<Map<number, Outcome>> {
    const ids = items.map(() => newUuid());
    const rows = await this.run(
      p,
      `INSERT INTO users (id, organization_id, email, first_name, last_name, external_id)
         SELECT v.id, $org::uuid, v.email, v.first_name, v.last_name, v.external_id
           FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::text[]) AS v(id, email, first_name, last_name, external_id)
         ON CONFLICT (organization_id, lower(email)) DO NOTHING
         RETURNING ${STUDENT_COLUMNS}`,
      [
        ids,
        items.map((v) => v.item.attributes.email.toLowerCase()),
        items.map((v) => v.item.attributes.first_name ?? ''),
        items.map((v) => v.item.attributes.last_name ?? ''),
        ids.map(studentExternalId),
      ],
    );
    const created = new Map(rows.map((r) => [r.id as string, r]));
    const out = new Map<number, Outcome>();
    items.forEach((v, i) => {
      const s = created.get(ids[i]);
      out.set(v.index, s ? ok(s) : fail('validation_error', 'A student with this email already exists in the organization.', '/attributes/email'));
    });
    return out;
  }

  /**
   * Batch update: one SELECT resolves every id and email of the batch, the rules run in memory,
   * one UPDATE ... FROM unnest(...) applies every change. The UPDATE repeats the state guards, so
   * a student anonymized or deactivated meanwhile is never changed (that item fails). A batch of
   * items by id alone runs the UPDATE first and looks up only what it did not update (updateFirst):
   * one statement when every item applies.
   */
  async updateMany(p: Principal, items: ValidItem<StudentUpdateItem>[]): Promise<Map<number, Outcome>> {
    const out = new Map<number, Outcome>();
    const pending: Pending[] = [];
    for (const v of items) {
      const a = v.item.attributes;
      const hasId = v.item.id !== undefined && v.item.id !== null;
      const email = a.email ?? undefined;
      const change = { firstName: a.first_name ?? undefined, lastName: a.last_name ?? undefined, isInactive: a.is_inactive ?? undefined };
      if (!hasId && email === undefined) {
        out.set(v.index, fail('validation_error', 'Identify the student with id or, failing that, attributes.email.', '/id'));
        continue;
      }
      if (change.firstName === undefined && change.lastName === undefined && change.isInactive === undefined) {
        out.set(v.index, fail('validation_error', 'Nothing to update: give at least one of first_name, last_name, is_inactive.', '/attributes'));
        continue;
      }
      let uuid: string | undefined;
      let publicId: string | undefined;
      if (hasId) {
        const id = v.item.id!;
        uuid = knownIds.get(id);
        if (uuid !== undefined) publicId = id;
        else {
          uuid = decodeId('student', id) ?? undefined;
          if (!uuid) {
            out.set(v.index, fail('not_found', 'Student not found.', '/id'));
            continue;
          }
          if (encodeId('student', uuid) === id) rememberId((publicId = id), uuid);
        }
      }
      pending.push({ index: v.index, uuid, email, firstName: change.firstName, lastName: change.lastName, isInactive: change.isInactive, publicId });
    }
    if (!pending.length) return out;
    // the usual batch: every item names a different student by id alone
    if (pending.every((q) => q.uuid !== undefined && q.email === undefined) && new Set(pending.map((q) => q.uuid)).size === pending.length) {
      if (await this.updateFirst(p, pending, out)) return out;
    }

    const uuids = [...new Set(pending.filter((q) => q.uuid).map((q) => q.uuid!))];
    const emails = [...new Set(pending.filter((q) => !q.uuid).map((q) => q.email!.toLowerCase()))];
    // only what the rules below read; the usual batch names every student by id, and then the lookup
    // is by primary key alone (the email branch made PostgreSQL scan the organization's rows)
    const found: Looked[] = emails.length
      ? await this.run(p, `SELECT ${LOOKUP} FROM users WHERE organization_id = $org AND (id = ANY($1::uuid[]) OR lower(email) = ANY($2::text[]))`, [uuids, emails])
      : await this.lookUp(p, uuids);
    const byId = new Map(found.map((s) => [s.id, s]));
    // needed only for items named by email
    const byEmail = new Map(emails.length ? found.map((s) => [s.email.toLowerCase(), s]) : []);

    const claimed = new Set<string>();
    const changes: Pending[] = [];
    for (const q of pending) {
      const ptr = q.uuid ? '/id' : '/attributes/email';
      const s = q.uuid ? byId.get(q.uuid) : byEmail.get(q.email!.toLowerCase());
      if (!s) {
        out.set(q.index, fail('not_found', 'Student not found.', ptr));
        continue;
      }
      if (q.uuid && q.email !== undefined && q.email.toLowerCase() !== s.email.toLowerCase()) {
        out.set(q.index, fail('validation_error', "attributes.email does not match the student's current email; email cannot be changed.", '/attributes/email'));
        continue;
      }
      if (claimed.has(s.id)) {
        out.set(q.index, fail('duplicate_in_batch', 'An earlier item of this batch already updates this student; only the first is processed.', ptr));
        continue;
      }
      claimed.add(s.id);
      const refused = stateRefusal(q, s, ptr);
      if (refused) {
        out.set(q.index, refused);
        continue;
      }
      q.id = s.id;
      changes.push(q);
    }
    if (!changes.length) return out;

    const updated = await this.apply(p, changes);
    const after = new Map(updated.map((r) => [r.id as string, r]));
    for (const c of changes) {
      const s = after.get(c.id!);
      out.set(c.index, s ? ok(s, c.publicId) : changedMeanwhile(c.uuid ? '/id' : '/attributes/email'));
    }
    return out;
  }

  /**
   * A batch whose items each name a different student by id alone, in one statement when every
   * item is applied: the UPDATE first (its guards are the state rules of updateMany: anonymized,
   * single sign-on, inactive unless a reactivation), then, only for the items it did not update,
   * the look-up that says why (not found, or the rule refused, or changed meanwhile). The same
   * outcomes as looking up first. When the UPDATE fails (a value the column refuses...), false and
   * nothing answered: updateMany then looks up first as usual (an item refused by the look-up is
   * never sent to the UPDATE). A database outage is thrown as it is.
   */
  private async updateFirst(p: Principal, pending: Pending[], out: Map<number, Outcome>): Promise<boolean> {
    let updated: any[];
    try {
      for (const q of pending) q.id = q.uuid;
      updated = await this.apply(p, pending);
    } catch (err) {
      if (isDatabaseUnavailable(err)) throw err;
      return false;
    }
    const after = new Map(updated.map((r) => [r.id as string, r]));
    const missed = pending.filter((q) => !after.has(q.uuid!));
    const found = new Map(
      missed.length
        ? (
            await this.lookUp(
              p,
              missed.map((q) => q.uuid!),
            )
          ).map((s) => [s.id, s])
        : [],
    );
    for (const q of pending) {
      const row = after.get(q.uuid!);
      if (row) {
        out.set(q.index, ok(row, q.publicId));
        continue;
      }
      const s = found.get(q.uuid!);
      out.set(q.index, s ? (stateRefusal(q, s, '/id') ?? changedMeanwhile('/id')) : fail('not_found', 'Student not found.', '/id'));
    }
    return true;
  }

  /** The students of `uuids` in the caller's organization: what the update rules read. */
  private lookUp(p: Principal, uuids: string[]): Promise<Looked[]> {
    return this.run(p, `SELECT ${LOOKUP} FROM users WHERE organization_id = $org AND id = ANY($1::uuid[])`, [uuids]);
  }

  /** One UPDATE of every change (`id`: the student's uuid), repeating the state guards; the rows it updated. */
  private async apply(p: Principal, changes: Pending[]): Promise<any[]> {
    return this.run(
      p,
      `UPDATE users u SET
            first_name = COALESCE(v.first_name, u.first_name),
            last_name = COALESCE(v.last_name, u.last_name),
            is_inactive = COALESCE(v.is_inactive, u.is_inactive),
            deactivated_at = CASE WHEN v.is_inactive IS TRUE AND NOT u.is_inactive THEN ${NOW}
                                  WHEN v.is_inactive IS FALSE THEN NULL
                                  ELSE u.deactivated_at END,
            updated_at = ${NOW}
           FROM unnest($1::uuid[], $2::text[], $3::text[], $4::boolean[]) AS v(id, first_name, last_name, is_inactive)
          WHERE u.id = v.id AND u.organization_id = $org
            AND NOT u.is_anonymized AND u.sso_provider IS NULL
            AND (NOT u.is_inactive OR (v.is_inactive IS FALSE AND v.first_name IS NULL AND v.last_name IS NULL))
        RETURNING ${RETURNING}`,
      [changes.map((c) => c.id!), changes.map((c) => c.firstName ?? null), changes.map((c) => c.lastName ?? null), changes.map((c) => c.isInactive ?? null)],
    );
  }
}
