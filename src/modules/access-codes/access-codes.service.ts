import { Injectable } from '@nestjs/common';
import { randomInt } from 'node:crypto';
import { DataSource, EntityManager, In, MoreThanOrEqual } from 'typeorm';
import { scoped } from '../../core/database/scoped';
import type { Principal } from '../../core/auth/principal';
import { notFound } from '../../core/http/api-error';
import { sentMembers } from '../../core/http/sent-members';
import { decodeId } from '../../core/ids/ids';
import type { V1PageRequest } from '../../core/pagination/v1-page';
import type { Domain } from '../domains/domain.entity';
import { DomainsService } from '../domains/domains.service';
import { fieldError, parseTimestamp } from '../../core/http/v1-rules';
import { detachAccessCodes } from '../domain-users/membership-writes';
import type { UserRow } from '../students/user-refs';
import { AccessCode, AccessCodePool } from './access-code.entity';
import type { AccessCodeDto, PoolCreateDto, PoolUpdateDto } from './dto/access-code.dto';
import { isUniqueViolation } from '../../core/database/sql';

export interface PoolView {
  pool: AccessCodePool;
  codeCount: number;
}

export interface CodeView {
  code: AccessCode;
  /** the larger of the redemption counter and the number of distinct users who used the code */
  useCount: number;
  /** on read, create and update (not in lists) */
  users?: UserRow[];
}

const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
const generateCode = () => Array.from({ length: 10 }, () => CODE_ALPHABET[randomInt(CODE_ALPHABET.length)]).join('');
const isCodeConflict = (e: unknown) => isUniqueViolation(e, 'access_codes_domain_code_uq');
const CODE_TAKEN = 'An access code with this code already exists on this domain.';

/**
 * Access code pools of a domain and their codes. Codes are unique per domain (what a learner types
 * on the domain's sign-up page). Every query filters on the caller's organization and the domain.
 */
@Injectable()
export class AccessCodesService {
  constructor(
    private readonly ds: DataSource,
    private readonly domains: DomainsService,
  ) {}

  private async pool(m: EntityManager, p: Principal, domain: Domain, id: string): Promise<AccessCodePool> {
    const uuid = decodeId('accessCodePool', id);
    const pool = uuid ? await m.getRepository(AccessCodePool).findOne({ where: { id: uuid, organizationId: p.organizationId, domainId: domain.id } }) : null;
    if (!pool) throw notFound();
    return pool;
  }

  private async codeCounts(m: EntityManager, organizationId: string, poolIds: string[]): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    if (!poolIds.length) return out;
    const rows = await scoped(m, organizationId).query<{ pool_id: string; n: number }[]>(
      `SELECT pool_id, count(*)::int AS n FROM access_codes WHERE organization_id = $org AND pool_id = ANY($1::uuid[]) GROUP BY pool_id`,
      [poolIds],
    );
    for (const r of rows) out.set(r.pool_id, r.n);
    return out;
  }

  private async poolViews(m: EntityManager, pools: AccessCodePool[]): Promise<PoolView[]> {
    const counts = pools.length
      ? await this.codeCounts(
          m,
          pools[0].organizationId,
          pools.map((x) => x.id),
        )
      : new Map<string, number>();
    return pools.map((pool) => ({ pool, codeCount: counts.get(pool.id) ?? 0 }));
  }

  // ------------------------------------------------------------------ pools

  /**
   * The domain's pools, oldest first; with `updatedSince` (/v1 `updated_since`), the pools changed at
   * or after it, by last change, on access_code_pools_domain_updated_idx.
   */
  async listPools(p: Principal, domainName: string, page: V1PageRequest, name?: string, updatedSince?: Date): Promise<{ rows: PoolView[]; count: number }> {
    const domain = await this.domains.requireByName(p, domainName);
    const m = this.ds.manager;
    const [pools, count] = await m.getRepository(AccessCodePool).findAndCount({
      where: {
        organizationId: p.organizationId,
        domainId: domain.id,
        ...(name !== undefined ? { name } : {}),
        ...(updatedSince ? { updatedAt: MoreThanOrEqual(updatedSince) } : {}),
      },
      order: updatedSince ? { updatedAt: 'ASC', id: 'ASC' } : { createdAt: 'ASC', id: 'ASC' },
      take: page.pageSize,
      skip: page.offset,
    });
    return { rows: await this.poolViews(m, pools), count };
  }

  async readPool(p: Principal, domainName: string, id: string): Promise<PoolView> {
    const domain = await this.domains.requireByName(p, domainName);
    const m = this.ds.manager;
    return (await this.poolViews(m, [await this.pool(m, p, domain, id)]))[0];
  }

  private poolDates(dto: PoolUpdateDto, current?: AccessCodePool) {
    const start = parseTimestamp('start_date', dto.start_date, true);
    const end = parseTimestamp('end_date', dto.end_date, true);
    const s = start !== undefined ? start : (current?.startDate ?? null);
    const e = end !== undefined ? end : (current?.endDate ?? null);
    if (s && e && e < s) throw fieldError('end_date', 'end_date must not be before start_date.');
    return { start, end };
  }

  async createPool(p: Principal, domainName: string, dto: PoolCreateDto): Promise<PoolView> {
    const domain = await this.domains.requireByName(p, domainName);
    const { start, end } = this.poolDates(dto);
    const repo = this.ds.getRepository(AccessCodePool);
    const pool = await repo.save(
      repo.create({
        organizationId: p.organizationId,
        domainId: domain.id,
        name: dto.name,
        active: dto.active ?? true,
        startDate: start ?? null,
        endDate: end ?? null,
        expireLinkedToDomainMembership: dto.expire_linked_to_domain_membership ?? false,
        channel: 'api',
      }),
    );
    return { pool, codeCount: 0 };
  }

  async updatePool(p: Principal, domainName: string, id: string, dto: PoolUpdateDto): Promise<PoolView> {
    const domain = await this.domains.requireByName(p, domainName);
    return this.ds.transaction(async (m) => {
      const pool = await this.pool(m, p, domain, id);
      const { start, end } = this.poolDates(dto, pool);
      const patch: Partial<AccessCodePool> = {};
      if (dto.name !== undefined) patch.name = dto.name;
      if (dto.active !== undefined) patch.active = dto.active;
      if (start !== undefined) patch.startDate = start;
      if (end !== undefined) patch.endDate = end;
      if (dto.expire_linked_to_domain_membership !== undefined) patch.expireLinkedToDomainMembership = dto.expire_linked_to_domain_membership;
      if (Object.keys(patch).length) {
        await m.getRepository(AccessCodePool).update({ id: pool.id, organizationId: p.organizationId }, patch);
        Object.assign(pool, patch);
      }
      return (await this.poolViews(m, [pool]))[0];
    });
  }

  /**
   * Deletes the pool and every code in it. Domain memberships that carried one of its codes keep
   * their membership and lose the code (domain_users.access_code_id has no foreign key).
   */
  async deletePool(p: Principal, domainName: string, id: string): Promise<void> {
    const domain = await this.domains.requireByName(p, domainName);
    await this.ds.transaction(async (m) => {
      const pool = await this.pool(m, p, domain, id);
      await detachAccessCodes(m, p.organizationId, domain.id, { poolId: pool.id });
      await m.getRepository(AccessCodePool).delete({ id: pool.id, organizationId: p.organizationId });
    });
  }

  // ------------------------------------------------------------------ codes

  private async code(m: EntityManager, p: Principal, pool: AccessCodePool, id: string): Promise<AccessCode> {
    const uuid = decodeId('accessCode', id);
    const code = uuid ? await m.getRepository(AccessCode).findOne({ where: { id: uuid, organizationId: p.organizationId, poolId: pool.id } }) : null;
    if (!code) throw notFound();
    return code;
  }

  /**
   * Who used a code: users with an `access_code_uses` row (redemptions) and domain members whose
   * membership carries the code (`domain_users.access_code_id`, the domain-users module's table).
   */
  private usesSql(codeParam: string) {
    return `SELECT access_code_id AS code_id, user_id, used_at AS at FROM access_code_uses WHERE access_code_id = ANY(${codeParam}::uuid[])
            UNION ALL
            SELECT access_code_id, user_id, enrolled_at FROM domain_users WHERE domain_id = $2 AND organization_id = $org AND access_code_id = ANY(${codeParam}::uuid[])`;
  }

  /** Distinct users per code for a page of codes; one query. */
  private async userCounts(m: EntityManager, p: Principal, domainId: string, codeIds: string[]): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    if (!codeIds.length) return out;
    const rows = await scoped(m, p.organizationId).query<{ code_id: string; n: number }[]>(`SELECT code_id, count(DISTINCT user_id)::int AS n FROM (${this.usesSql('$1')}) x GROUP BY code_id`, [
      codeIds,
      domainId,
    ]);
    for (const r of rows) out.set(r.code_id, r.n);
    return out;
  }

  /** The users who used the code, first use first (at most 1000). */
  private async users(m: EntityManager, p: Principal, code: AccessCode): Promise<UserRow[]> {
    return scoped(m, p.organizationId).query<UserRow[]>(
      `SELECT u.id, u.email, u.first_name, u.last_name
         FROM (SELECT user_id, min(at) AS at FROM (${this.usesSql('$1')}) x GROUP BY user_id) used
         JOIN users u ON u.id = used.user_id AND u.organization_id = $org
        ORDER BY used.at, u.id LIMIT 1000`,
      [[code.id], code.domainId],
    );
  }

  private async withUsers(m: EntityManager, p: Principal, code: AccessCode): Promise<CodeView> {
    const users = await this.users(m, p, code);
    return { code, users, useCount: Math.max(code.useCount, users.length) };
  }

  /**
   * The pool's codes, oldest first; with the page's `updated_since` (@V1Resource), the codes changed
   * at or after it (an update of the code; a redemption moves its `use_count` with it), by last
   * change, on access_codes_pool_updated_idx.
   */
  async listCodes(p: Principal, domainName: string, poolId: string, page: V1PageRequest): Promise<{ rows: CodeView[]; count: number }> {
    const domain = await this.domains.requireByName(p, domainName);
    const m = this.ds.manager;
    const pool = await this.pool(m, p, domain, poolId);
    const since = page.updatedSince;
    const [codes, count] = await m.getRepository(AccessCode).findAndCount({
      where: { organizationId: p.organizationId, poolId: pool.id, ...(since ? { updatedAt: MoreThanOrEqual(since) } : {}) },
      order: since ? { updatedAt: 'ASC', id: 'ASC' } : { createdAt: 'ASC', id: 'ASC' },
      take: page.pageSize,
      skip: page.offset,
    });
    const counts = await this.userCounts(
      m,
      p,
      domain.id,
      codes.map((c) => c.id),
    );
    return { rows: codes.map((code) => ({ code, useCount: Math.max(code.useCount, counts.get(code.id) ?? 0) })), count };
  }

  async readCode(p: Principal, domainName: string, poolId: string, id: string): Promise<CodeView> {
    const domain = await this.domains.requireByName(p, domainName);
    const m = this.ds.manager;
    const pool = await this.pool(m, p, domain, poolId);
    return this.withUsers(m, p, await this.code(m, p, pool, id));
  }

  private async assertCodeFree(m: EntityManager, domain: Domain, code: string, exceptId?: string) {
    const taken = await m.getRepository(AccessCode).find({ select: { id: true }, where: { organizationId: domain.organizationId, domainId: domain.id, code: In([code]) } });
    if (taken.some((r) => r.id !== exceptId)) throw fieldError('code', CODE_TAKEN);
  }

  async createCode(p: Principal, domainName: string, poolId: string, dto: AccessCodeDto): Promise<CodeView> {
    const domain = await this.domains.requireByName(p, domainName);
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.ds.transaction(async (m) => {
          const pool = await this.pool(m, p, domain, poolId);
          const value = dto.code ?? generateCode();
          await this.assertCodeFree(m, domain, value);
          const repo = m.getRepository(AccessCode);
          const code = await repo.save(
            repo.create({
              organizationId: p.organizationId,
              domainId: domain.id,
              poolId: pool.id,
              code: value,
              active: dto.active ?? true,
              maxUses: dto.max_uses ?? 1,
              useCount: 0,
              duration: dto.duration ?? null,
              durationUnit: dto.duration_unit ?? 'MONTHS',
            }),
          );
          return { code, users: [], useCount: 0 };
        });
      } catch (e) {
        if (!isCodeConflict(e)) throw e;
        if (dto.code !== undefined || attempt >= 3) throw fieldError('code', CODE_TAKEN);
      }
    }
  }

  async updateCode(p: Principal, domainName: string, poolId: string, id: string, dto: AccessCodeDto): Promise<CodeView> {
    const domain = await this.domains.requireByName(p, domainName);
    try {
      return await this.ds.transaction(async (m) => {
        const pool = await this.pool(m, p, domain, poolId);
        const code = await this.code(m, p, pool, id);
        const patch: Partial<AccessCode> = {};
        if (dto.code !== undefined && dto.code !== code.code) {
          await this.assertCodeFree(m, domain, dto.code, code.id);
          patch.code = dto.code;
        }
        Object.assign(patch, sentMembers<AccessCodeDto, AccessCode>(dto, { active: 'active', max_uses: 'maxUses', duration: 'duration', duration_unit: 'durationUnit' }));
        if (Object.keys(patch).length) {
          await m.getRepository(AccessCode).update({ id: code.id, organizationId: p.organizationId }, patch);
          Object.assign(code, patch);
        }
        return this.withUsers(m, p, code);
      });
    } catch (e) {
      if (isCodeConflict(e)) throw fieldError('code', CODE_TAKEN);
      throw e;
    }
  }

  /** Deletes the code; memberships that carried it keep the membership and lose the code. */
  async deleteCode(p: Principal, domainName: string, poolId: string, id: string): Promise<void> {
    const domain = await this.domains.requireByName(p, domainName);
    await this.ds.transaction(async (m) => {
      const pool = await this.pool(m, p, domain, poolId);
      const code = await this.code(m, p, pool, id);
      await detachAccessCodes(m, p.organizationId, domain.id, { codeId: code.id });
      await m.getRepository(AccessCode).delete({ id: code.id, organizationId: p.organizationId });
    });
  }
}
