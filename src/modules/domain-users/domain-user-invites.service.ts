import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { Principal } from '../../core/auth/principal';
import { constantTimeEqual, randomToken, sha256 } from '../../core/crypto/crypto';
import { rowsOf } from '../../core/database/sql';
import type { DomainUserInviteRow } from './domain-user-invites.store';

/** An invite as the /v1 operations show it. */
type InviteRow = Pick<DomainUserInviteRow, 'id' | 'sent_at' | 'used_at'>;
import { notFound } from '../../core/http/api-error';
import { iso } from '../../core/http/v1-rules';
import { decodeId, encodeId } from '../../core/ids/ids';
import type { V1PageRequest } from '../../core/pagination/v1-page';
import type { Domain } from '../domains/domain.entity';
import { fieldError } from '../../core/http/v1-rules';
import { DomainUsersService } from './domain-users.service';
import { scoped, unscoped } from '../../core/database/scoped';
import type { DomainUserInviteV1 } from './domain-users.shape';

/**
 * Domain-user invites (table domain_user_invites, /v1 domains/{name}/users/{id}/invites): the
 * invite's user must be a member of the domain (DomainUsersService.get). The token is a secret kept
 * only as its SHA-256.
 */
@Injectable()
export class DomainUserInvitesService {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly domainUsers: DomainUsersService,
  ) {}

  /**
   * The member's invites, oldest first. With `updatedSince` (/v1 `updated_since`), the invites
   * changed at or after it (made, mailed, used: `updated_at`, kept by the trigger data_out_touch), by
   * last change, on domain_user_invites_user_updated_idx.
   */
  async listInvites(p: Principal, domain: Domain, userPublicId: string, page: V1PageRequest, updatedSince?: Date) {
    const du = await this.domainUsers.get(p, domain, userPublicId);
    const params: unknown[] = [domain.id, du.user_id];
    const where = `domain_id = $1 AND user_id = $2 AND organization_id = $org${updatedSince ? ` AND updated_at >= $${params.push(updatedSince)}` : ''}`;
    const [c] = await scoped(this.ds, p.organizationId).query<{ n: number }[]>(`SELECT count(*)::int AS n FROM domain_user_invites WHERE ${where}`, params);
    const rows = await scoped(this.ds, p.organizationId).query<InviteRow[]>(
      `SELECT id, sent_at, used_at FROM domain_user_invites WHERE ${where} ORDER BY ${updatedSince ? 'updated_at' : 'created_at'}, id LIMIT ${page.pageSize} OFFSET ${page.offset}`,
      params,
    );
    return { rows: rows.map((r: any) => this.presentInvite(domain, r)), count: c.n };
  }

  async getInvite(p: Principal, domain: Domain, userPublicId: string, inviteId: string) {
    const du = await this.domainUsers.get(p, domain, userPublicId);
    const uuid = decodeId('domainUserInvite', inviteId);
    if (!uuid) throw notFound();
    const [row] = await scoped(this.ds, p.organizationId).query<InviteRow[]>(
      `SELECT id, sent_at, used_at FROM domain_user_invites WHERE id = $1 AND domain_id = $2 AND user_id = $3 AND organization_id = $org`,
      [uuid, domain.id, du.user_id],
    );
    if (!row) throw notFound();
    return this.presentInvite(domain, row);
  }

  /**
   * POST invites: the user must already be on the domain (an organization's user who is not is
   * a 400; an unknown id a 404) and not anonymized (400: an anonymized user can never be invited
   * again). The row is recorded here; the mail is the worker's job (sent_at stays null until it is
   * sent). The token is a secret: only its SHA-256 is stored, and it is shown in this answer only.
   */
  async createInvite(p: Principal, domain: Domain, userPublicId: string, sendEmail: boolean) {
    const uuid = decodeId('student', userPublicId);
    if (!uuid) throw notFound();
    const [user] = await scoped(this.ds, p.organizationId).query<{ id: string; is_anonymized: boolean }[]>(`SELECT id, is_anonymized FROM users WHERE id = $1 AND organization_id = $org`, [uuid]);
    if (!user) throw notFound();
    if (user.is_anonymized) throw fieldError('user', 'The user is anonymized and cannot be invited.');
    const [member] = await scoped(this.ds, p.organizationId).query<unknown[]>(`SELECT 1 FROM domain_users WHERE domain_id = $1 AND user_id = $2 AND organization_id = $org`, [domain.id, uuid]);
    if (!member) throw fieldError('user', 'The user is not a member of this domain: add them to the domain first.');
    const token = randomToken(24);
    const [row] = await scoped(this.ds, p.organizationId).query<InviteRow[]>(
      `INSERT INTO domain_user_invites (organization_id, domain_id, user_id, token_hash, send_email) VALUES ($org, $1, $2, $3, $4) RETURNING id, sent_at, used_at`,
      [domain.id, uuid, sha256(token), sendEmail],
    );
    return this.presentInvite(domain, row, token);
  }

  /**
   * Use an invite (the learner app's invite page; the token is the credential there): marks it
   * used and answers the organization, domain and user it is for, or null when the token is
   * unknown, already used, or its user has been anonymized or deactivated meanwhile. Looked up by
   * the token's SHA-256, as refresh tokens are.
   */
  async acceptInvite(token: unknown): Promise<{ organizationId: string; domainId: string; userId: string } | null> {
    if (typeof token !== 'string' || !token || token.length > 512) return null;
    const hash = sha256(token);
    const rows = await unscoped(this.ds, 'an invite is found by its token hash')
      .query<unknown>(
        `UPDATE domain_user_invites i SET used_at = date_trunc('milliseconds', now())
         FROM users u
        WHERE i.token_hash = $1 AND i.used_at IS NULL AND u.id = i.user_id AND u.organization_id = i.organization_id
          AND NOT u.is_anonymized AND NOT u.is_inactive
        RETURNING i.organization_id, i.domain_id, i.user_id, i.token_hash`,
        [hash],
      )
      .then((r) => rowsOf<Pick<DomainUserInviteRow, 'organization_id' | 'domain_id' | 'user_id' | 'token_hash'>>(r));
    const row = rows[0];
    if (!row || !constantTimeEqual(row.token_hash, hash)) return null;
    return { organizationId: row.organization_id, domainId: row.domain_id, userId: row.user_id };
  }

  /** The published DomainUserInvite (DomainUserInviteSchema: the secret only in the create answer). */
  private presentInvite(domain: Domain, r: any, token?: string): DomainUserInviteV1 {
    return {
      id: encodeId('domainUserInvite', r.id),
      token: token ?? '',
      sent_at: iso(r.sent_at),
      used_at: iso(r.used_at),
      invite_url: token ? `https://${domain.name}/auth/invite/${token}` : '',
    };
  }
}
