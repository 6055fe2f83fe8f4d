import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { Principal } from '../../core/auth/principal';
import type { ItemOutcome, ValidItem } from '../../core/batch/batch';
import { rowsOf } from '../../core/database/sql';
import { scoped } from '../../core/database/scoped';
import { decodeId, encodeId } from '../../core/ids/ids';
import { MembershipStudentRef } from './dto/membership.dto';

/** A group membership as /v2 shows it (MembershipResource). */
export interface MembershipRow {
  id: string;
  userId: string;
  createdAt: Date;
}

type Failure = { ok: false; code: 'not_found' | 'validation_error'; detail: string; pointer: string };
const studentNotFound: Failure = { ok: false, code: 'not_found', detail: 'Student not found.', pointer: '/id' };

/**
 * /v2 group memberships (POST and DELETE /v2/groups/{id}/relationships/students/), over the
 * group_memberships table this module owns. Callers resolve the group first
 * (GroupsService.requireGroupId: 404 outside the caller's organization). Idempotent both ways,
 * set-wise: a fixed number of statements whatever the batch size, each bound to the organization.
 */
@Injectable()
export class GroupMembershipsService {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /** Decode each item's student id; an undecodable id fails (other members were refused by validation: @Closed). */
  private decode(items: ValidItem<MembershipStudentRef>[], out: Map<number, ItemOutcome<any>>): { index: number; sent: string; userId: string }[] {
    const rows: { index: number; sent: string; userId: string }[] = [];
    for (const v of items) {
      const userId = decodeId('student', v.item.id);
      if (!userId) out.set(v.index, studentNotFound);
      else rows.push({ index: v.index, sent: v.item.id, userId });
    }
    return rows;
  }

  /**
   * Decode the items (decode), then, when any is left, run `write` on them with the organization's
   * scoped statements; `write` records each decoded item's outcome in `out`.
   */
  private async withStudents<R>(
    p: Principal,
    items: ValidItem<MembershipStudentRef>[],
    write: (db: ReturnType<typeof scoped>, decoded: { index: number; sent: string; userId: string }[], out: Map<number, ItemOutcome<R>>) => Promise<void>,
  ): Promise<Map<number, ItemOutcome<R>>> {
    const out = new Map<number, ItemOutcome<R>>();
    const decoded = this.decode(items, out);
    if (decoded.length) await write(scoped(this.ds, p.organizationId), decoded, out);
    return out;
  }

  /**
   * Add: the students (one statement: unknown ones are not_found, anonymized ones validation_error,
   * as nothing new is made for an anonymized person), one INSERT ... ON CONFLICT DO NOTHING (an
   * existing membership is kept as it is) and one SELECT of the memberships, new and existing alike.
   */
  async add(p: Principal, groupId: string, items: ValidItem<MembershipStudentRef>[]): Promise<Map<number, ItemOutcome<MembershipRow>>> {
    return this.withStudents<MembershipRow>(p, items, async (db, decoded, out) => {
      const users: { id: string; is_anonymized: boolean }[] = await db.query(`SELECT id, is_anonymized FROM users WHERE organization_id = $org AND id = ANY($1::uuid[])`, [
        [...new Set(decoded.map((d) => d.userId))],
      ]);
      const state = new Map(users.map((u) => [u.id, u.is_anonymized]));
      const adds = decoded.filter((d) => {
        const anonymized = state.get(d.userId);
        if (anonymized === undefined) out.set(d.index, studentNotFound);
        else if (anonymized) out.set(d.index, { ok: false, code: 'validation_error', detail: 'The student is anonymized and cannot be added to a group.', pointer: '/id' });
        return anonymized === false;
      });
      if (!adds.length) return;
      const ids = adds.map((a) => a.userId);
      // the group's existence is re-checked in the statement: a group deleted meanwhile gets no rows
      await db.query(
        `INSERT INTO group_memberships (group_id, user_id, organization_id)
         SELECT $1, u.id, $org FROM unnest($2::uuid[]) AS u(id)
          WHERE EXISTS (SELECT 1 FROM groups g WHERE g.id = $1 AND g.organization_id = $org)
         ON CONFLICT (group_id, user_id) DO NOTHING`,
        [groupId, ids],
      );
      const rows: { id: string; user_id: string; created_at: Date }[] = await db.query(
        `SELECT id, user_id, created_at FROM group_memberships WHERE organization_id = $org AND group_id = $1 AND user_id = ANY($2::uuid[])`,
        [groupId, ids],
      );
      const byUser = new Map(rows.map((r) => [r.user_id, { id: r.id, userId: r.user_id, createdAt: new Date(r.created_at) }]));
      for (const a of adds) {
        const m = byUser.get(a.userId);
        out.set(a.index, m ? { ok: true, id: encodeId('groupMembership', m.id), result: m } : { ok: false, code: 'not_found', detail: 'Group not found.', pointer: '' });
      }
    });
  }

  /**
   * Remove: one DELETE ... RETURNING; a student of the organization who was not a member is
   * removed all the same (idempotent), an id that is no student of the organization is not_found
   * (one look-up, for the absent ones only). The result id echoes the student id as sent.
   */
  async remove(p: Principal, groupId: string, items: ValidItem<MembershipStudentRef>[]): Promise<Map<number, ItemOutcome<never>>> {
    return this.withStudents<never>(p, items, async (db, decoded, out) => {
      const deleted = rowsOf<{ user_id: string }>(
        await db.query<unknown>(`DELETE FROM group_memberships WHERE organization_id = $org AND group_id = $1 AND user_id = ANY($2::uuid[]) RETURNING user_id`, [
          groupId,
          decoded.map((d) => d.userId),
        ]),
      );
      const gone = new Set(deleted.map((r) => r.user_id));
      const absent = [...new Set(decoded.filter((d) => !gone.has(d.userId)).map((d) => d.userId))];
      const known = new Set<string>(
        absent.length ? (await db.query<{ id: string }[]>(`SELECT id FROM users WHERE organization_id = $org AND id = ANY($1::uuid[])`, [absent])).map((r: { id: string }) => r.id) : [],
      );
      for (const d of decoded) out.set(d.index, gone.has(d.userId) || known.has(d.userId) ? { ok: true, id: d.sent, deleted: true } : studentNotFound);
    });
  }
}
