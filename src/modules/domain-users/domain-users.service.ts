import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomBytes } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import type { Principal } from '../../core/auth/principal';
import { AppConfig } from '../../core/config/config';
import { signPayload } from '../../core/crypto/crypto';
import { eventDomain } from '../../core/events/bodies';
import { recordEvents } from '../../core/events/outbox';
import { notFound } from '../../core/http/api-error';
import { decodeId, encodeId } from '../../core/ids/ids';
import { insertMissingUsers } from '../students/students.service';
import { assignOnRegistration } from '../groups/auto-assignment';
import type { V1PageRequest } from '../../core/pagination/v1-page';
import type { Domain } from '../domains/domain.entity';
import { fieldError, parseTimestamp } from '../../core/http/v1-rules';
import { poolRead, PoolRead, TEXT_TIMESTAMPS } from '../../core/database/pool-reads';
import { presentUser } from './event-user';
import { BulkUserDto, DomainUserCreateDto, DomainUserUpdateDto } from './dto/domain-user.dto';
import { scoped, unscoped } from '../../core/database/scoped';

/** Login tokens returned by a domain-user create are valid this long (seconds). */
export const LOGIN_TOKEN_TTL = 15 * 60;
export const LOGIN_TOKEN_PURPOSE = 'v1-domain-login';

export interface DomainUserFilters {
  email?: string;
  firstName?: string;
  lastName?: string;
  active?: boolean;
  accessCodeNull?: boolean;
  accessCodeCode?: string;
  accessCodeId?: string;
  accessCodePoolId?: string;
  signupFieldId?: string;
  signupFieldLabel?: string;
  signupFieldValue?: string;
  /** updated_since: changed at or after, ordered by last change on domain_users_domain_updated_idx (domain_id, updated_at, id) */
  updatedSince?: Date;
}

export interface DomainUserRow {
  id: string;
  user_id: string;
  email: string;
  first_name: string;
  last_name: string;
  active: boolean;
  marketing_optin: boolean | null;
  enrolled_at: Date;
  expires_at: Date | null;
  access_code_id: string | null;
}

export interface AccessCodeInfo {
  id: string;
  code: string;
  pool_id: string | null;
  pool_name: string | null;
}

export interface SignupValue {
  user_id: string;
  field_id: string;
  label: string;
  value: string;
}

const SELECT = `du.id, du.user_id, u.email, u.first_name, u.last_name, du.active, du.marketing_optin, du.enrolled_at, du.expires_at, du.access_code_id`;
const FROM = `domain_users du JOIN users u ON u.id = du.user_id`;
const LIST_WHERE = `du.organization_id = $org AND du.domain_id = $1 AND u.organization_id = $org`;
/** The unfiltered list's two fixed texts (pg named statements). */
const LIST_COUNT: PoolRead = { name: 'domain_users_v1_count', sql: `SELECT count(*)::int AS n FROM ${FROM} WHERE ${LIST_WHERE}` };
const LIST_PAGE: PoolRead = {
  name: 'domain_users_v1_page',
  sql: `SELECT ${SELECT} FROM ${FROM} WHERE ${LIST_WHERE} ORDER BY du.enrolled_at, du.id LIMIT $2 OFFSET $3`,
  types: TEXT_TIMESTAMPS,
};

/** A list row: a DomainUserRow whose timestamps are pg's text (TEXT_TIMESTAMPS). */
export interface DomainUserListRow extends Omit<DomainUserRow, 'enrolled_at' | 'expires_at'> {
  enrolled_at: string;
  expires_at: string | null;
}

/** Signup fields that apply to a domain: the organization's own (domain_id null) and the domain's. */
export const FIELD_APPLIES = (f: string, domainParam: string) => `(${f}.domain_id IS NULL OR ${f}.domain_id = ${domainParam})`;

/**
 * Domain users: membership of the organization's users in a domain (table domain_users), with
 * the list filters of resource-reference-api.md section 4. Joining a domain records
 * DOMAIN_ENROLLMENT in the outbox in the same transaction. Invites are DomainUserInvitesService.
 *
 * Access codes live in another module's tables (access_codes, access_code_pools, per domain);
 * this service reads them with its own narrowly-scoped SQL when they exist, and treats them as
 * empty before that module's migration has run. A domain user's code must be one of the domain's.
 */
@Injectable()
export class DomainUsersService {
  private accessCodesReady = false;

  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly config: AppConfig,
  ) {}

  private async accessCodeTables(m: EntityManager = this.ds.manager): Promise<boolean> {
    if (this.accessCodesReady) return true;
    const [r] = await unscoped(m, 'schema introspection').query<{ ok: boolean }[]>(`SELECT to_regclass('access_codes') IS NOT NULL AND to_regclass('access_code_pools') IS NOT NULL AS ok`);
    this.accessCodesReady = !!r.ok;
    return this.accessCodesReady;
  }

  /**
   * A page of the domain's members and their count: two statements sent to the pg pool (poolRead),
   * named when unfiltered (the hot page of issue 16), timestamps kept as pg's text (domainUserJson).
   */
  async list(p: Principal, domain: Domain, page: V1PageRequest, f: DomainUserFilters): Promise<{ rows: DomainUserListRow[]; count: number }> {
    const params: unknown[] = [domain.id];
    const where = [`du.organization_id = $org`, `du.domain_id = $1`, `u.organization_id = $org`];
    const add = (sql: (n: string) => string, value: unknown) => {
      params.push(value);
      where.push(sql(`$${params.length}`));
    };
    if (f.email !== undefined) add((n) => `lower(u.email) = lower(${n})`, f.email);
    if (f.firstName !== undefined) add((n) => `u.first_name = ${n}`, f.firstName);
    if (f.lastName !== undefined) add((n) => `u.last_name = ${n}`, f.lastName);
    if (f.active !== undefined) add((n) => `du.active = ${n}`, f.active);
    if (f.accessCodeNull) where.push(`du.access_code_id IS NULL`);
    if (f.accessCodeId !== undefined) {
      const uuid = decodeId('accessCode', f.accessCodeId);
      if (!uuid) return { rows: [], count: 0 };
      add((n) => `du.access_code_id = ${n}::uuid`, uuid);
    }
    if (f.accessCodeCode !== undefined || f.accessCodePoolId !== undefined) {
      if (!(await this.accessCodeTables())) return { rows: [], count: 0 };
      if (f.accessCodeCode !== undefined) add((n) => `EXISTS (SELECT 1 FROM access_codes ac WHERE ac.id = du.access_code_id AND ac.code = ${n})`, f.accessCodeCode);
      if (f.accessCodePoolId !== undefined) {
        const uuid = decodeId('accessCodePool', f.accessCodePoolId);
        if (!uuid) return { rows: [], count: 0 };
        add((n) => `EXISTS (SELECT 1 FROM access_codes ac WHERE ac.id = du.access_code_id AND ac.pool_id = ${n}::uuid)`, uuid);
      }
    }
    if (f.signupFieldId !== undefined || f.signupFieldLabel !== undefined || f.signupFieldValue !== undefined) {
      // one value row must satisfy every signup-field filter given
      const conds = [`v.user_id = du.user_id`, `sf.organization_id = $org`, FIELD_APPLIES('sf', '$1')];
      if (f.signupFieldId !== undefined) {
        const uuid = decodeId('signupField', f.signupFieldId);
        if (!uuid) return { rows: [], count: 0 };
        params.push(uuid);
        conds.push(`sf.id = $${params.length}::uuid`);
      }
      if (f.signupFieldLabel !== undefined) {
        params.push(f.signupFieldLabel);
        conds.push(`sf.label = $${params.length}`);
      }
      if (f.signupFieldValue !== undefined) {
        params.push(f.signupFieldValue);
        conds.push(`v.value = $${params.length}`);
      }
      where.push(`EXISTS (SELECT 1 FROM signup_field_values v JOIN signup_fields sf ON sf.id = v.signup_field_id WHERE ${conds.join(' AND ')})`);
    }
    // updated_since orders by last change (docs/decisions/data-out.md)
    if (f.updatedSince) add((n) => `du.updated_at >= ${n}`, f.updatedSince);
    const order = f.updatedSince ? 'du.updated_at, du.id' : 'du.enrolled_at, du.id';
    const fixed = params.length === 1 && where.length === 3;
    const w = where.join(' AND ');
    const n = params.length;
    const countRead: PoolRead = fixed ? LIST_COUNT : { sql: `SELECT count(*)::int AS n FROM ${FROM} WHERE ${w}` };
    const pageRead: PoolRead = fixed ? LIST_PAGE : { sql: `SELECT ${SELECT} FROM ${FROM} WHERE ${w} ORDER BY ${order} LIMIT $${n + 1} OFFSET $${n + 2}`, types: TEXT_TIMESTAMPS };
    const [c] = await poolRead(this.ds, p.organizationId, countRead, params);
    const rows = await poolRead(this.ds, p.organizationId, pageRead, [...params, page.pageSize, page.offset]);
    return { rows, count: c.n };
  }

  /** The access codes of a page's rows, one query (empty before the access-code tables exist). */
  async accessCodes(p: Principal, ids: (string | null)[], m: EntityManager = this.ds.manager): Promise<Map<string, AccessCodeInfo>> {
    const out = new Map<string, AccessCodeInfo>();
    const wanted = [...new Set(ids.filter((x): x is string => !!x))];
    if (!wanted.length || !(await this.accessCodeTables(m))) return out;
    const rows: AccessCodeInfo[] = await scoped(m, p.organizationId).query(
      `SELECT ac.id, ac.code, ac.pool_id, pool.name AS pool_name FROM access_codes ac LEFT JOIN access_code_pools pool ON pool.id = ac.pool_id
       WHERE ac.id = ANY($1::uuid[]) AND ac.organization_id = $org`,
      [wanted],
    );
    for (const r of rows) out.set(r.id, r);
    return out;
  }

  /** The signup-field values of a page's users for the fields that apply to the domain, one query. */
  async signupValues(p: Principal, domain: Domain, userIds: string[], m: EntityManager = this.ds.manager): Promise<Map<string, SignupValue[]>> {
    const out = new Map<string, SignupValue[]>();
    if (!userIds.length) return out;
    const rows: SignupValue[] = await scoped(m, p.organizationId).query(
      `SELECT v.user_id, sf.id AS field_id, sf.label, v.value FROM signup_field_values v JOIN signup_fields sf ON sf.id = v.signup_field_id
       WHERE v.user_id = ANY($1::uuid[]) AND v.organization_id = $org AND sf.organization_id = $org AND ${FIELD_APPLIES('sf', '$2')}
       ORDER BY sf."order", sf.created_at, sf.id`,
      [[...new Set(userIds)], domain.id],
    );
    for (const r of rows) {
      const list = out.get(r.user_id) ?? [];
      list.push(r);
      out.set(r.user_id, list);
    }
    return out;
  }

  /** One member of the domain by the user's public id, or 404. */
  async get(p: Principal, domain: Domain, userPublicId: string, m: EntityManager = this.ds.manager): Promise<DomainUserRow> {
    const uuid = decodeId('student', userPublicId);
    if (!uuid) throw notFound();
    const [row] = await scoped(m, p.organizationId).query<DomainUserRow[]>(`SELECT ${SELECT} FROM ${FROM} WHERE du.user_id = $1 AND du.domain_id = $2 AND du.organization_id = $org`, [
      uuid,
      domain.id,
    ]);
    if (!row) throw notFound();
    return row;
  }

  /**
   * POST: find the organization's user by email (case-insensitive) or create one, and add them
   * to the domain. An existing member is returned unchanged (`created` false → 200).
   */
  async create(p: Principal, domain: Domain, dto: DomainUserCreateDto): Promise<{ row: DomainUserRow; created: boolean; loginToken: string }> {
    const expiresAt = parseTimestamp('expires_at', dto.expires_at, true);
    const email = dto.user.email.trim();
    const result = await this.ds.transaction(async (m) => {
      await insertMissingUsers(m, p.organizationId, [{ email, first_name: dto.user.first_name, last_name: dto.user.last_name }]);
      const [user] = await scoped(m, p.organizationId).query<{ id: string; email: string; first_name: string; last_name: string }[]>(
        `SELECT id, email, first_name, last_name FROM users WHERE organization_id = $org AND lower(email) = lower($1)`,
        [email],
      );
      const inserted = await scoped(m, p.organizationId).query<{ id: string }[]>(
        `INSERT INTO domain_users (organization_id, domain_id, user_id, active, marketing_optin, expires_at) VALUES ($org, $1, $2, $3, $4, $5)
         ON CONFLICT (domain_id, user_id) DO NOTHING RETURNING id`,
        [domain.id, user.id, dto.active ?? true, dto.marketing_optin ?? null, domain.access === 'PUBLIC' ? null : (expiresAt ?? null)],
      );
      const created = inserted.length > 0;
      if (created) {
        await assignOnRegistration(m, p.organizationId, [user.id]);
        await recordEvents(m, [
          {
            organizationId: p.organizationId,
            type: 'DOMAIN_ENROLLMENT',
            objects: {
              user: presentUser({ user_id: user.id, email: user.email, first_name: user.first_name, last_name: user.last_name }),
              domain: eventDomain(domain),
            },
          },
        ]);
      }
      return { row: await this.get(p, domain, encodeId('student', user.id), m), created };
    });
    return { ...result, loginToken: this.loginToken(p.organizationId, domain.id, result.row.user_id) };
  }

  /**
   * POST users/bulk-create (OpenAPI-only): every item is validated first (any error rejects the whole
   * request, nothing is written); then, in one transaction and a handful of statements, new emails
   * become users, everyone not yet a member joins the domain, and one DOMAIN_ENROLLMENT per new
   * membership goes to the outbox. Existing memberships are left unchanged.
   */
  async bulkCreate(p: Principal, domain: Domain, items: BulkUserDto[]): Promise<{ joined: number; existing: number }> {
    const seen = new Map<string, number>();
    const expires = items.map((it, i) => {
      const key = it.email.trim().toLowerCase();
      const at = { index: i, of: items.length };
      if (seen.has(key)) throw fieldError(['users', at, 'email'], `Duplicate of users.${seen.get(key)}.email.`);
      seen.set(key, i);
      return parseTimestamp(['users', at, 'expires_at'], it.expires_at, true) ?? null;
    });
    return this.ds.transaction(async (m) => {
      const emails = items.map((it) => it.email.trim().toLowerCase());
      await insertMissingUsers(
        m,
        p.organizationId,
        emails.map((email, i) => ({ email, first_name: items[i].first_name, last_name: items[i].last_name })),
      );
      const users: { id: string; email: string; first_name: string; last_name: string; k: string }[] = await scoped(m, p.organizationId).query(
        `SELECT id, email, first_name, last_name, lower(email) AS k FROM users WHERE organization_id = $org AND lower(email) = ANY($1::text[])`,
        [emails],
      );
      const byEmail = new Map(users.map((u) => [u.k, u]));
      const ordered = emails.map((e) => byEmail.get(e)!);
      const inserted: { user_id: string }[] = await scoped(m, p.organizationId).query(
        `INSERT INTO domain_users (organization_id, domain_id, user_id, active, marketing_optin, expires_at)
         SELECT $org, $1, v.user_id, v.active, v.marketing_optin, v.expires_at
           FROM unnest($2::uuid[], $3::boolean[], $4::boolean[], $5::timestamptz[]) AS v(user_id, active, marketing_optin, expires_at)
         ON CONFLICT (domain_id, user_id) DO NOTHING RETURNING user_id`,
        [domain.id, ordered.map((u) => u.id), items.map((it) => it.active ?? true), items.map((it) => it.marketing_optin ?? null), expires.map((e) => (domain.access === 'PUBLIC' ? null : e))],
      );
      const joined = new Set(inserted.map((r) => r.user_id));
      await assignOnRegistration(m, p.organizationId, [...joined]);
      await recordEvents(
        m,
        ordered
          .filter((u) => joined.has(u.id))
          .map((u) => ({
            organizationId: p.organizationId,
            type: 'DOMAIN_ENROLLMENT' as const,
            objects: { user: presentUser({ user_id: u.id, email: u.email, first_name: u.first_name, last_name: u.last_name }), domain: eventDomain(domain) },
          })),
      );
      return { joined: joined.size, existing: items.length - joined.size };
    });
  }

  /** A signed, expiring token that lets the user sign in on the domain (verified by the learner app). */
  loginToken(organizationId: string, domainId: string, userId: string): string {
    const exp = Math.floor(Date.now() / 1000) + LOGIN_TOKEN_TTL;
    return signPayload(this.config.APP_SECRET, LOGIN_TOKEN_PURPOSE, { org: organizationId, dom: domainId, sub: userId, exp, n: randomBytes(8).toString('base64url') });
  }

  /** PUT / PATCH: active, expires_at (ignored on public domains), access_code ({id} or null). */
  async update(p: Principal, domain: Domain, userPublicId: string, dto: DomainUserUpdateDto): Promise<DomainUserRow> {
    const current = await this.get(p, domain, userPublicId);
    const expiresAt = parseTimestamp('expires_at', dto.expires_at, true);
    const sets: string[] = [];
    const params: unknown[] = [current.id];
    const set = (col: string, v: unknown) => {
      params.push(v);
      sets.push(`${col} = $${params.length}`);
    };
    if (dto.active !== undefined) set('active', dto.active);
    if (expiresAt !== undefined && domain.access !== 'PUBLIC') set('expires_at', expiresAt);
    if (dto.access_code !== undefined) {
      if (dto.access_code === null) set('access_code_id', null);
      else {
        const ref = dto.access_code;
        const rawId = typeof ref === 'object' && !Array.isArray(ref) ? (ref as Record<string, unknown>).id : undefined;
        if (typeof rawId !== 'string' || !rawId) throw fieldError('access_code', 'Must be null or an object with an id.');
        const uuid = decodeId('accessCode', rawId);
        const found =
          uuid && (await this.accessCodeTables())
            ? await scoped(this.ds, p.organizationId).query<{ id: string }[]>(`SELECT id FROM access_codes WHERE id = $1 AND organization_id = $org AND domain_id = $2`, [uuid, domain.id])
            : [];
        if (!found.length) throw fieldError('access_code', `Invalid id "${rawId}" - object does not exist.`);
        set('access_code_id', uuid);
      }
    }
    if (sets.length)
      await scoped(this.ds, p.organizationId).query(`UPDATE domain_users SET ${sets.join(', ')}, updated_at = date_trunc('milliseconds', now()) WHERE id = $1 AND organization_id = $org`, params);
    return this.get(p, domain, userPublicId);
  }
}
