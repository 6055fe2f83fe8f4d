import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import type { Principal } from '../../core/auth/principal';
import { notFound } from '../../core/http/api-error';
import { fieldError, invalidPk, parseTimestamp } from '../../core/http/v1-rules';
import { decodeId } from '../../core/ids/ids';
import type { V1PageRequest } from '../../core/pagination/v1-page';
import { isUniqueViolation, rowsOf } from '../../core/database/sql';
import type { PromoCodeCreateDto, PromoCodePatchDto, PromoCodePoolCreateDto, PromoCodePoolPatchDto } from './dto/promo-codes.dto';
import { loadOfferItems, OfferItemView } from './promo-codes.offers';
import { clearPromoCodeUse } from './purchases.store';
import { OrgWhere, sqlRowOr404, v1SqlPage } from '../../core/pagination/v1-sql-page';
import { scoped } from '../../core/database/scoped';
import type { PoolRow } from './promo-code-pools.store';
import type { PromoCodeRow } from './promo-codes.store';

export type { PoolRow } from './promo-code-pools.store';
export type { PromoCodeRow } from './promo-codes.store';

const POOL_COLS = `id, name, active, starts_at, expires_at, expire_content, discount_type, price_cents, percent_off, single_use_per_user`;
const CODE_COLS = `id, pool_id, code, max_uses, use_count, active`;
const CODE_TAKEN = 'A promo code with this code already exists.';
/** At most this many offers attached per request (resource-reference-api.md section 8). */
export const MAX_POOL_OFFERS_PER_REQUEST = 500;

/**
 * Promo code pools, the offers they apply to, and their promo codes (/v1/promo-code-pools,
 * /v1/promo-codes; docs/decisions/commerce-limits.md). Codes are unique per organization and
 * case-sensitive (what a buyer types at checkout). Checkout enforces them through checkout-limits.ts.
 */
@Injectable()
export class PromoCodesService {
  constructor(private readonly ds: DataSource) {}

  // ------------------------------------------------------------------ pools

  private pool(m: EntityManager, p: Principal, id: string, lock = false): Promise<PoolRow> {
    return sqlRowOr404(m, POOL_COLS, 'promo_code_pools', 'promoCodePool', p.organizationId, id, lock);
  }

  async listPools(p: Principal, page: V1PageRequest, filters: { offerId?: string; name?: string }): Promise<{ rows: PoolRow[]; count: number }> {
    const where = new OrgWhere(p.organizationId, 'x.organization_id')
      .equals('x.name', filters.name)
      .and(
        filters.offerId === undefined ? undefined : decodeId('offer', filters.offerId),
        (offer) => `EXISTS (SELECT 1 FROM promo_code_pool_offers po WHERE po.organization_id = x.organization_id AND po.pool_id = x.id AND po.offer_id = ${offer}::uuid)`,
      );
    return v1SqlPage(this.ds, POOL_COLS, 'promo_code_pools x', where, page);
  }

  async readPool(p: Principal, id: string): Promise<PoolRow> {
    return this.pool(this.ds.manager, p, id);
  }

  private window(dto: PromoCodePoolPatchDto, current?: PoolRow): { startsAt: Date | undefined; expiresAt: Date | null | undefined } {
    const startsAt = parseTimestamp('starts_at', dto.starts_at, false) ?? undefined;
    const expiresAt = parseTimestamp('expires_at', dto.expires_at, true);
    const s = startsAt ?? current?.starts_at;
    const e = expiresAt !== undefined ? expiresAt : (current?.expires_at ?? null);
    if (s && e && e <= s) throw fieldError('expires_at', 'expires_at must be after starts_at.');
    return { startsAt, expiresAt };
  }

  async createPool(p: Principal, dto: PromoCodePoolCreateDto): Promise<PoolRow> {
    const { startsAt, expiresAt } = this.window(dto);
    const percent = dto.discount_type === 'PERCENT_OFF';
    if (percent && (dto.percent_off === undefined || dto.percent_off === null)) throw fieldError('percent_off', 'This field is required when discount_type is PERCENT_OFF.');
    if (!percent && (dto.price_cents === undefined || dto.price_cents === null)) throw fieldError('price_cents', 'This field is required when discount_type is PRICE_OVERRIDE.');
    if (percent && dto.price_cents !== undefined && dto.price_cents !== null) throw fieldError('price_cents', 'price_cents applies only to PRICE_OVERRIDE pools.');
    if (!percent && dto.percent_off !== undefined && dto.percent_off !== null) throw fieldError('percent_off', 'percent_off applies only to PERCENT_OFF pools.');
    const [row]: PoolRow[] = await scoped(this.ds, p.organizationId).query(
      `INSERT INTO promo_code_pools (organization_id, name, active, starts_at, expires_at, expire_content, discount_type, price_cents, percent_off, single_use_per_user)
       VALUES ($org, $1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING ${POOL_COLS}`,
      [
        dto.name,
        dto.active ?? true,
        startsAt,
        expiresAt ?? null,
        dto.expire_content ?? false,
        dto.discount_type,
        percent ? null : dto.price_cents,
        percent ? dto.percent_off : null,
        dto.single_use_per_user ?? false,
      ],
    );
    return row;
  }

  async updatePool(p: Principal, id: string, dto: PromoCodePoolPatchDto): Promise<PoolRow> {
    return this.ds.transaction(async (m) => {
      const pool = await this.pool(m, p, id, true);
      const { startsAt, expiresAt } = this.window(dto, pool);
      const [row]: PoolRow[] = rowsOf(
        await scoped(m, p.organizationId).query<unknown>(
          `UPDATE promo_code_pools SET
             name = COALESCE($2, name), active = COALESCE($3, active), starts_at = COALESCE($4, starts_at),
             expires_at = CASE WHEN $5 THEN $6::timestamptz ELSE expires_at END,
             expire_content = COALESCE($7, expire_content), updated_at = now()
           WHERE organization_id = $org AND id = $1 RETURNING ${POOL_COLS}`,
          [pool.id, dto.name ?? null, dto.active ?? null, startsAt ?? null, expiresAt !== undefined, expiresAt ?? null, dto.expire_content ?? null],
        ),
      );
      return row;
    });
  }

  /**
   * Deletes the pool, its codes (their held uses go with them: a pending purchase of such a code
   * releases nothing) and its offer links. Purchases that used its codes lose the code
   * (`code_used`, purchases.store clearPromoCodeUse) and keep their recorded price members.
   */
  async deletePool(p: Principal, id: string): Promise<void> {
    await this.ds.transaction(async (m) => {
      const pool = await this.pool(m, p, id, true);
      const codes: { id: string }[] = await scoped(m, p.organizationId).query(`SELECT id FROM promo_codes WHERE organization_id = $org AND pool_id = $1`, [pool.id]);
      await clearPromoCodeUse(
        m,
        p.organizationId,
        codes.map((c) => c.id),
      );
      await scoped(m, p.organizationId).query(`DELETE FROM promo_code_pools WHERE organization_id = $org AND id = $1`, [pool.id]);
    });
  }

  // ------------------------------------------------------------------ pool offers

  /**
   * A pool's offers, by the link made (a link is made or removed, never changed: its `created_at` is
   * its last change, so `updatedSince` keeps the links made since, in the same order, on
   * promo_code_pool_offers_org_pool_created_idx).
   */
  async listPoolOffers(p: Principal, poolId: string, page: V1PageRequest, updatedSince?: Date): Promise<{ rows: OfferItemView[][]; count: number }> {
    const m = this.ds.manager;
    const pool = await this.pool(m, p, poolId);
    const since = updatedSince ? ' AND created_at >= $2' : '';
    const params = updatedSince ? [pool.id, updatedSince] : [pool.id];
    const [{ n }] = await scoped(m, p.organizationId).query<{ n: number }[]>(`SELECT count(*)::int AS n FROM promo_code_pool_offers WHERE organization_id = $org AND pool_id = $1${since}`, params);
    const ids: { offer_id: string }[] = await scoped(m, p.organizationId).query(
      `SELECT offer_id FROM promo_code_pool_offers WHERE organization_id = $org AND pool_id = $1${since} ORDER BY created_at, offer_id LIMIT ${page.pageSize} OFFSET ${page.offset}`,
      params,
    );
    const items = await loadOfferItems(
      m,
      p.organizationId,
      ids.map((r) => r.offer_id),
    );
    return { rows: ids.map((r) => items.filter((i) => i.id === r.offer_id)), count: n };
  }

  /** Attaches one offer (`{id}`) or a list of them (`[{id}, ...]`, at most 500); attaching an attached offer changes nothing. */
  async attachPoolOffers(p: Principal, poolId: string, body: unknown): Promise<OfferItemView[]> {
    const items = Array.isArray(body) ? body : [body];
    if (!items.length) throw fieldError('non_field_errors', 'Expected at least one offer.');
    if (items.length > MAX_POOL_OFFERS_PER_REQUEST) throw fieldError('non_field_errors', `At most ${MAX_POOL_OFFERS_PER_REQUEST} offers may be attached per request.`);
    const raw: string[] = [];
    for (const item of items) {
      if (!item || typeof item !== 'object' || Array.isArray(item)) throw fieldError('non_field_errors', 'Invalid data. Expected a dictionary.');
      const id = (item as { id?: unknown }).id;
      if (id === undefined) throw fieldError('id', 'This field is required.');
      if (typeof id !== 'string') throw fieldError('id', 'Not a valid string.');
      if (!id.length) throw fieldError('id', 'This field may not be blank.');
      raw.push(id);
    }
    return this.ds.transaction(async (m) => {
      const pool = await this.pool(m, p, poolId, true);
      const uuids = [...new Set(raw.map((id) => decodeId('offer', id)).filter((x): x is string => !!x))];
      const found: { id: string }[] = uuids.length ? await scoped(m, p.organizationId).query(`SELECT id FROM offers WHERE organization_id = $org AND id = ANY($1::uuid[])`, [uuids]) : [];
      const known = new Set(found.map((r) => r.id));
      const missing = raw.find((id) => !known.has(decodeId('offer', id) ?? ''));
      if (missing !== undefined) throw invalidPk('id', missing);
      await scoped(m, p.organizationId).query(
        `INSERT INTO promo_code_pool_offers (organization_id, pool_id, offer_id, created_at)
         SELECT $org, $1, x, now() + n * interval '1 microsecond' FROM unnest($2::uuid[]) WITH ORDINALITY AS t(x, n) ON CONFLICT (pool_id, offer_id) DO NOTHING`,
        [pool.id, uuids],
      );
      return loadOfferItems(m, p.organizationId, uuids);
    });
  }

  async detachPoolOffer(p: Principal, poolId: string, offerId: string): Promise<void> {
    await this.ds.transaction(async (m) => {
      const pool = await this.pool(m, p, poolId);
      const uuid = decodeId('offer', offerId);
      const gone = uuid
        ? rowsOf(
            await scoped(m, p.organizationId).query<unknown>(`DELETE FROM promo_code_pool_offers WHERE organization_id = $org AND pool_id = $1 AND offer_id = $2 RETURNING offer_id`, [pool.id, uuid]),
          )
        : [];
      if (!gone.length) throw notFound();
    });
  }

  // ------------------------------------------------------------------ codes

  private code(m: EntityManager, p: Principal, id: string): Promise<PromoCodeRow> {
    return sqlRowOr404(m, CODE_COLS, 'promo_codes', 'promoCode', p.organizationId, id);
  }

  async listCodes(p: Principal, page: V1PageRequest, filters: { poolId?: string; code?: string; active?: boolean }): Promise<{ rows: PromoCodeRow[]; count: number }> {
    const where = new OrgWhere(p.organizationId)
      .and(filters.poolId === undefined ? undefined : decodeId('promoCodePool', filters.poolId), (pool) => `pool_id = ${pool}::uuid`)
      .equals('code', filters.code)
      .equals('active', filters.active);
    return v1SqlPage(this.ds, CODE_COLS, 'promo_codes', where, page);
  }

  async readCode(p: Principal, id: string): Promise<PromoCodeRow> {
    return this.code(this.ds.manager, p, id);
  }

  async createCode(p: Principal, dto: PromoCodeCreateDto): Promise<PromoCodeRow> {
    const poolUuid = decodeId('promoCodePool', dto.promo_code_pool_id);
    try {
      return await this.ds.transaction(async (m) => {
        const pool: { id: string }[] = poolUuid ? await scoped(m, p.organizationId).query(`SELECT id FROM promo_code_pools WHERE organization_id = $org AND id = $1 FOR SHARE`, [poolUuid]) : [];
        if (!pool.length) throw invalidPk('promo_code_pool_id', dto.promo_code_pool_id);
        const [row]: PromoCodeRow[] = await scoped(m, p.organizationId).query(
          `INSERT INTO promo_codes (organization_id, pool_id, code, max_uses, active) VALUES ($org, $1, $2, $3, $4) RETURNING ${CODE_COLS}`,
          [pool[0].id, dto.code, dto.max_uses, dto.active ?? true],
        );
        return row;
      });
    } catch (e) {
      if (isUniqueViolation(e, 'promo_codes_org_code_uq')) throw fieldError('code', CODE_TAKEN);
      throw e;
    }
  }

  /** Lowering `max_uses` below `use_count` is allowed: the code then takes no further use. */
  async updateCode(p: Principal, id: string, dto: PromoCodePatchDto): Promise<PromoCodeRow> {
    const code = await this.code(this.ds.manager, p, id);
    try {
      const [row]: PromoCodeRow[] = rowsOf(
        await scoped(this.ds, p.organizationId).query<unknown>(
          `UPDATE promo_codes SET code = COALESCE($2, code), max_uses = COALESCE($3, max_uses), active = COALESCE($4, active), updated_at = now()
            WHERE organization_id = $org AND id = $1 RETURNING ${CODE_COLS}`,
          [code.id, dto.code ?? null, dto.max_uses ?? null, dto.active ?? null],
        ),
      );
      if (!row) throw notFound();
      return row;
    } catch (e) {
      if (isUniqueViolation(e, 'promo_codes_org_code_uq')) throw fieldError('code', CODE_TAKEN);
      throw e;
    }
  }

  /** Deletes the code (its use rows with it); the purchases that used it lose the code (`code_used`), not their amounts. */
  async deleteCode(p: Principal, id: string): Promise<void> {
    await this.ds.transaction(async (m) => {
      const code = await this.code(m, p, id);
      await clearPromoCodeUse(m, p.organizationId, [code.id]);
      const gone = rowsOf(await scoped(m, p.organizationId).query<{ id: string }[]>(`DELETE FROM promo_codes WHERE organization_id = $org AND id = $1 RETURNING id`, [code.id]));
      if (!gone.length) throw notFound();
    });
  }
}
