import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { Principal } from '../../core/auth/principal';
import type { ItemOutcome, ValidItem } from '../../core/batch/batch';
import { scoped } from '../../core/database/scoped';
import { rowsOf } from '../../core/database/sql';
import { eventDomain } from '../../core/events/bodies';
import { recordEvents } from '../../core/events/outbox';
import { conflict, notFound } from '../../core/http/api-error';
import { decodeId, encodeId } from '../../core/ids/ids';
import type { PageRequest } from '../../core/pagination/cursor-page';
import { assignOnRegistration } from '../groups/auto-assignment';
import { presentUser } from './event-user';
import { DomainRefV2 } from './dto/domain-membership.v2.dto';

/** A domain membership as /v2 shows it: the domain_users row with its domain's name. */
export interface DomainMembershipRow {
  id: string;
  userId: string;
  domainId: string;
  domainName: string;
  active: boolean;
  enrolledAt: Date;
  expiresAt: Date | null;
  createdAt: Date;
  /** the keyset of filter[updated_since] */
  updatedAt: Date;
}

const SELECT = `du.id, du.user_id AS "userId", du.domain_id AS "domainId", d.name AS "domainName", du.active,
  du.enrolled_at AS "enrolledAt", du.expires_at AS "expiresAt", du.created_at AS "createdAt", du.updated_at AS "updatedAt"`;
const FROM = `domain_users du JOIN domains d ON d.id = du.domain_id AND d.organization_id = du.organization_id`;

/**
 * /v2/students/{id}/relationships/domain-memberships/ (live /v2 addition, CONVENTIONS §17): a /v2
 * student registered on a domain is the same domain_users row as a /v1 domain user, made with the
 * same effects (group auto-assignment on registration, DOMAIN_ENROLLMENT in the outbox, one
 * transaction), so a student made on /v2 can be enrolled on /v2.
 */
@Injectable()
export class DomainMembershipsV2Service {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /** The student's uuid, or 404 (malformed, unknown, another organization's). */
  async requireStudent(p: Principal, publicId: string): Promise<{ id: string; email: string; first_name: string; last_name: string; is_anonymized: boolean }> {
    const id = decodeId('student', publicId);
    const [row] = id
      ? await scoped(this.ds, p.organizationId).query<{ id: string; email: string; first_name: string; last_name: string; is_anonymized: boolean }[]>(
          `SELECT id, email, first_name, last_name, is_anonymized FROM users WHERE id = $1 AND organization_id = $org`,
          [id],
        )
      : [];
    if (!row) throw notFound('Student not found.');
    return row;
  }

  /**
   * A page of the student's memberships, oldest first (domain_users_org_user_created_idx); with
   * `updatedSince`, those changed at or after it by last change (domain_users_org_user_updated_idx,
   * docs/decisions/data-out.md).
   */
  async list(p: Principal, userId: string, page: PageRequest, updatedSince?: Date): Promise<DomainMembershipRow[]> {
    const params: unknown[] = [userId, page.size + 1];
    const at = updatedSince ? 'du.updated_at' : 'du.created_at';
    let after = '';
    if (updatedSince) after += ` AND du.updated_at >= $${params.push(updatedSince)}`;
    if (page.after) after += ` AND (${at}, du.id) > ($${params.push(page.after.t)}::timestamptz, $${params.push(page.after.id)}::uuid)`;
    return scoped(this.ds, p.organizationId).query(`SELECT ${SELECT} FROM ${FROM} WHERE du.organization_id = $org AND du.user_id = $1${after} ORDER BY ${at}, du.id LIMIT $2`, params);
  }

  /** The student's membership of the domain (opaque domain id), or 404. */
  async get(p: Principal, userId: string, domainPublicId: string): Promise<DomainMembershipRow> {
    const domainId = decodeId('domain', domainPublicId);
    const [row] = domainId
      ? await scoped(this.ds, p.organizationId).query<DomainMembershipRow[]>(`SELECT ${SELECT} FROM ${FROM} WHERE du.organization_id = $org AND du.user_id = $1 AND du.domain_id = $2`, [
          userId,
          domainId,
        ])
      : [];
    if (!row) throw notFound('Domain membership not found.');
    return row;
  }

  /**
   * Register the student on each domain (idempotent: an existing membership is that item's success,
   * unchanged). Unknown domains are the item's not_found. An anonymized student is a 409 for the whole request.
   */
  async add(
    p: Principal,
    student: { id: string; email: string; first_name: string; last_name: string; is_anonymized: boolean },
    items: ValidItem<DomainRefV2>[],
  ): Promise<Map<number, ItemOutcome<DomainMembershipRow>>> {
    if (student.is_anonymized) throw conflict('The student is anonymized.');
    const out = new Map<number, ItemOutcome<DomainMembershipRow>>();
    const wanted = new Map<number, string>();
    for (const v of items) {
      const id = decodeId('domain', v.item.id);
      if (id) wanted.set(v.index, id);
      else out.set(v.index, { ok: false, code: 'not_found', detail: 'Domain not found.', pointer: '/id' });
    }
    if (!wanted.size) return out;
    return this.ds.transaction(async (m) => {
      const db = scoped(m, p.organizationId);
      const domains: { id: string; name: string }[] = await db.query(`SELECT id, name FROM domains WHERE organization_id = $org AND id = ANY($1::uuid[])`, [[...new Set(wanted.values())]]);
      const known = new Map(domains.map((d) => [d.id, d]));
      const ids = [...known.keys()];
      const inserted = rowsOf<{ domain_id: string }>(
        await db.query<unknown>(
          `INSERT INTO domain_users (organization_id, domain_id, user_id, active)
           SELECT $org, d, $1, true FROM unnest($2::uuid[]) AS d
           ON CONFLICT (domain_id, user_id) DO NOTHING RETURNING domain_id`,
          [student.id, ids],
        ),
      );
      if (inserted.length) {
        await assignOnRegistration(m, p.organizationId, [student.id]);
        const user = presentUser({ user_id: student.id, email: student.email, first_name: student.first_name, last_name: student.last_name });
        await recordEvents(
          m,
          inserted.map((r) => ({ organizationId: p.organizationId, type: 'DOMAIN_ENROLLMENT' as const, objects: { user, domain: eventDomain(known.get(r.domain_id)!) } })),
        );
      }
      const rows: DomainMembershipRow[] = await db.query(`SELECT ${SELECT} FROM ${FROM} WHERE du.organization_id = $org AND du.user_id = $1 AND du.domain_id = ANY($2::uuid[])`, [student.id, ids]);
      const byDomain = new Map(rows.map((r) => [r.domainId, r]));
      for (const [index, domainId] of wanted) {
        const row = byDomain.get(domainId);
        out.set(index, row ? { ok: true, id: encodeId('domainMembership', row.id), result: row } : { ok: false, code: 'not_found', detail: 'Domain not found.', pointer: '/id' });
      }
      return out;
    });
  }

  /** Remove the student from the domain (the membership row; enrollments stay as they are). 404 when not a member. */
  async remove(p: Principal, userId: string, domainPublicId: string): Promise<void> {
    const domainId = decodeId('domain', domainPublicId);
    const rows = domainId
      ? rowsOf<{ id: string }>(
          await scoped(this.ds, p.organizationId).query<unknown>(`DELETE FROM domain_users WHERE organization_id = $org AND user_id = $1 AND domain_id = $2 RETURNING id`, [userId, domainId]),
        )
      : [];
    if (!rows.length) throw notFound('Domain membership not found.');
  }
}
