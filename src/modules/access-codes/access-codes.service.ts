import { Injectable } from '@nestjs/common';
import { randomInt } from 'node:crypto';
import { DataSource, EntityManager, In } from 'typeorm';
import type { Principal } from '../../core/auth/principal';
import { notFound } from '../../core/http/api-error';
import { decodeId } from '../../core/ids/ids';
import type { V1PageRequest } from '../../core/pagination/v1-page';
import type { Domain } from '../domains/domain.entity';
import { DomainsService } from '../domains/domains.service';
import { fieldError, parseTimestamp, UserRow, requireDomain } from '../paths/v1-common';
import { AccessCode, AccessCodePool } from './access-code.entity';
import type { AccessCodeDto, PoolCreateDto, PoolUpdateDto } from './dto/access-code.dto';

export interface PoolView {
  pool: AccessCodePool;
  codeCount: number;
}

export interface CodeView {
  code: AccessCode;
  /** on read, create and update (not in lists) */
  users?: UserRow[];
}

const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
const generateCode = () => Array.from({ length: 10 }, () => CODE_ALPHABET[randomInt(CODE_ALPHABET.length)]).join('');
const isCodeConflict = (e: unknown) => (e as { code?: string; constraint?: string })?.code === '23505' && (e as { constraint?: string }).constraint === 'access_codes_domain_code_uq';
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

  private async domain(p: Principal, name: string): Promise<Domain> {
    return requireDomain(this.domains, p, name);
  }

  private async pool(m: EntityManager, p: Principal, domain: Domain, id: string): Promise<AccessCodePool> {
    const uuid = decodeId('accessCodePool', id);
    const pool = uuid ? await m.getRepository(AccessCodePool).findOne({ where: { id: uuid, organizationId: p.organizationId, domainId: domain.id } }) : null;
    if (!pool) throw notFound();
    return pool;
  }

  private async codeCounts(m: EntityManager, poolIds: string[]): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    if (!poolIds.length) return out;
    const rows: { pool_id: string; n: number }[] = await m.query(`SELECT pool_id, count(*)::int AS n FROM access_codes WHERE pool_id = ANY($1::uuid[]) GROUP BY pool_id`, [poolIds]);
    for (const r of rows) out.set(r.pool_id, r.n);
    return out;
  }

  private async poolViews(m: EntityManager, pools: AccessCodePool[]): Promise<PoolView[]> {
    const counts = await this.codeCounts(m, pools.map((x) => x.id));
    return pools.map((pool) => ({ pool, codeCount: counts.get(pool.id) ?? 0 }));
  }

  // ------------------------------------------------------------------ pools

  async listPools(p: Principal, domainName: string, page: V1PageRequest, name?: string): Promise<{ rows: PoolView[]; count: number }> {
    const domain = await this.domain(p, domainName);
    const m = this.ds.manager;
    const [pools, count] = await m.getRepository(AccessCodePool).findAndCount({
      where: { organizationId: p.organizationId, domainId: domain.id, ...(name !== undefined ? { name } : {}) },
      order: { createdAt: 'ASC', id: 'ASC' },
      take: page.pageSize,
      skip: page.offset,
    });
    return { rows: await this.poolViews(m, pools), count };
  }

  async readPool(p: Principal, domainName: string, id: string): Promise<PoolView> {
    const domain = await this.domain(p, domainName);
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
    const domain = await this.domain(p, domainName);
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
    const domain = await this.domain(p, domainName);
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

  /** Deletes the pool and every code in it. */
  async deletePool(p: Principal, domainName: string, id: string): Promise<void> {
    const domain = await this.domain(p, domainName);
    const pool = await this.pool(this.ds.manager, p, domain, id);
    await this.ds.getRepository(AccessCodePool).delete({ id: pool.id, organizationId: p.organizationId });
  }

  // ------------------------------------------------------------------ codes

  private async code(m: EntityManager, p: Principal, pool: AccessCodePool, id: string): Promise<AccessCode> {
    const uuid = decodeId('accessCode', id);
    const code = uuid ? await m.getRepository(AccessCode).findOne({ where: { id: uuid, organizationId: p.organizationId, poolId: pool.id } }) : null;
    if (!code) throw notFound();
    return code;
  }

  /** The users who redeemed the code (access_code_uses), in redemption order. */
  private async users(m: EntityManager, p: Principal, codeId: string): Promise<UserRow[]> {
    return m.query(
      `SELECT u.id, u.email, u.first_name, u.last_name FROM access_code_uses acu JOIN users u ON u.id = acu.user_id AND u.organization_id = $1
        WHERE acu.access_code_id = $2 ORDER BY acu.used_at, u.id LIMIT 1000`,
      [p.organizationId, codeId],
    );
  }

  async listCodes(p: Principal, domainName: string, poolId: string, page: V1PageRequest): Promise<{ rows: CodeView[]; count: number }> {
    const domain = await this.domain(p, domainName);
    const m = this.ds.manager;
    const pool = await this.pool(m, p, domain, poolId);
    const [codes, count] = await m.getRepository(AccessCode).findAndCount({
      where: { organizationId: p.organizationId, poolId: pool.id },
      order: { createdAt: 'ASC', id: 'ASC' },
      take: page.pageSize,
      skip: page.offset,
    });
    return { rows: codes.map((code) => ({ code })), count };
  }

  async readCode(p: Principal, domainName: string, poolId: string, id: string): Promise<CodeView> {
    const domain = await this.domain(p, domainName);
    const m = this.ds.manager;
    const pool = await this.pool(m, p, domain, poolId);
    const code = await this.code(m, p, pool, id);
    return { code, users: await this.users(m, p, code.id) };
  }

  private async assertCodeFree(m: EntityManager, domain: Domain, code: string, exceptId?: string) {
    const taken = await m.getRepository(AccessCode).find({ select: { id: true }, where: { domainId: domain.id, code: In([code]) } });
    if (taken.some((r) => r.id !== exceptId)) throw fieldError('code', CODE_TAKEN);
  }

  async createCode(p: Principal, domainName: string, poolId: string, dto: AccessCodeDto): Promise<CodeView> {
    const domain = await this.domain(p, domainName);
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
          return { code, users: [] };
        });
      } catch (e) {
        if (!isCodeConflict(e)) throw e;
        if (dto.code !== undefined || attempt >= 3) throw fieldError('code', CODE_TAKEN);
      }
    }
  }

  async updateCode(p: Principal, domainName: string, poolId: string, id: string, dto: AccessCodeDto): Promise<CodeView> {
    const domain = await this.domain(p, domainName);
    try {
      return await this.ds.transaction(async (m) => {
        const pool = await this.pool(m, p, domain, poolId);
        const code = await this.code(m, p, pool, id);
        const patch: Partial<AccessCode> = {};
        if (dto.code !== undefined && dto.code !== code.code) {
          await this.assertCodeFree(m, domain, dto.code, code.id);
          patch.code = dto.code;
        }
        if (dto.active !== undefined) patch.active = dto.active;
        if (dto.max_uses !== undefined) patch.maxUses = dto.max_uses;
        if (dto.duration !== undefined) patch.duration = dto.duration;
        if (dto.duration_unit !== undefined) patch.durationUnit = dto.duration_unit;
        if (Object.keys(patch).length) {
          await m.getRepository(AccessCode).update({ id: code.id, organizationId: p.organizationId }, patch);
          Object.assign(code, patch);
        }
        return { code, users: await this.users(m, p, code.id) };
      });
    } catch (e) {
      if (isCodeConflict(e)) throw fieldError('code', CODE_TAKEN);
      throw e;
    }
  }

  async deleteCode(p: Principal, domainName: string, poolId: string, id: string): Promise<void> {
    const domain = await this.domain(p, domainName);
    const m = this.ds.manager;
    const pool = await this.pool(m, p, domain, poolId);
    const code = await this.code(m, p, pool, id);
    await m.getRepository(AccessCode).delete({ id: code.id, organizationId: p.organizationId });
  }
}
