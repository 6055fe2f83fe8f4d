import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { Principal } from '../../core/auth/principal';
import { notFound } from '../../core/http/api-error';
import { fieldError } from '../../core/http/v1-rules';
import { decodeId } from '../../core/ids/ids';
import { v1SinceSql } from '../../core/pagination/updated-since';
import type { V1PageRequest } from '../../core/pagination/v1-page';
import type { OfferUpdateDto } from './dto/offer.dto';
import type { OfferItemRow } from './offers';
import { updateSent } from './update-sent';
import { scoped } from '../../core/database/scoped';

/**
 * The offers of live objects (a published course whose course exists, a published path, a plan or
 * course series not deleted), with the domain of their object. `o` is offers; `$1` the organization.
 */
const FROM = `offers o
  LEFT JOIN (published_courses pc JOIN courses c ON c.id = pc.course_id AND c.organization_id = pc.organization_id AND c.deleted_at IS NULL)
         ON pc.id = o.published_course_id AND pc.organization_id = o.organization_id AND pc.unpublished_at IS NULL
  LEFT JOIN published_paths pp ON pp.id = o.published_path_id AND pp.organization_id = o.organization_id AND pp.unpublished_at IS NULL
  LEFT JOIN plans pl ON pl.id = o.plan_id AND pl.organization_id = o.organization_id AND pl.deleted_at IS NULL
  LEFT JOIN course_series cs ON cs.id = o.course_series_id AND cs.organization_id = o.organization_id AND cs.deleted_at IS NULL
  LEFT JOIN domains d ON d.id = coalesce(pc.domain_id, pp.domain_id, pl.domain_id, cs.domain_id) AND d.organization_id = o.organization_id`;
const LIVE = `(pc.id IS NOT NULL OR pp.id IS NOT NULL OR pl.id IS NOT NULL OR cs.id IS NOT NULL)`;
const SELECT = `o.id, o.published_course_id, o.published_path_id, o.plan_id, o.course_series_id, d.id AS domain_id, d.name AS domain_name,
  o.description,
  o.registration_open, o.price_cents, o.currency_code, o.sku, o.created_at, ${LIVE} AS live`;

/** /v1/offers: list, read, update (price, currency, registration_open). Every statement carries the organization. */
@Injectable()
export class OffersV1Service {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  async list(p: Principal, page: V1PageRequest): Promise<{ rows: OfferItemRow[]; count: number }> {
    const since = v1SinceSql(page, 'o.updated_at', 1, 'o.created_at, o.id');
    const [{ n }] = await scoped(this.ds, p.organizationId).query<{ n: number }[]>(`SELECT count(*)::int AS n FROM ${FROM} WHERE o.organization_id = $org AND ${LIVE}${since.and}`, since.params);
    const rows = await scoped(this.ds, p.organizationId).query<OfferItemRow[]>(
      `SELECT ${SELECT} FROM ${FROM} WHERE o.organization_id = $org AND ${LIVE}${since.and} ORDER BY ${since.order} LIMIT ${page.pageSize} OFFSET ${page.offset}`,
      since.params,
    );
    return { rows, count: n };
  }

  /** The live offer behind a public id, or 404 (malformed, unknown, another organization's, object gone). */
  async read(p: Principal, publicId: string, m: EntityManager = this.ds.manager): Promise<OfferItemRow> {
    const row = await offerItem(m, p.organizationId, publicId);
    if (!row) throw notFound();
    return row;
  }

  /** PUT and PATCH (both partial, as published): price_cents, currency_code, price_credits (null only), registration_open. */
  async update(p: Principal, publicId: string, dto: OfferUpdateDto): Promise<OfferItemRow> {
    if (dto.price_credits !== undefined && dto.price_credits !== null) throw fieldError('price_credits', 'Credit pricing is not enabled for this organization.');
    return this.ds.transaction(async (m) => {
      const row = await this.read(p, publicId, m);
      await updateSent(m, 'offers', row.id, p.organizationId, { price_cents: dto.price_cents, currency_code: dto.currency_code, registration_open: dto.registration_open });
      return this.read(p, publicId, m);
    });
  }
}

/** The live offer behind a public id (null when none), for checkout and the reads. */
export async function offerItem(m: EntityManager, organizationId: string, publicId: unknown, lock = false): Promise<OfferItemRow | null> {
  const uuid = decodeId('offer', publicId);
  if (!uuid) return null;
  const [row] = await scoped(m, organizationId).query<OfferItemRow[]>(`SELECT ${SELECT} FROM ${FROM} WHERE o.id = $1 AND o.organization_id = $org AND ${LIVE}${lock ? ' FOR SHARE OF o' : ''}`, [uuid]);
  return row ?? null;
}

/**
 * The offers with these uuids as the published OfferItem shows them, live or not (`live` false, and
 * no domain, when the object they sell is gone), in creation order; unknown ones left out.
 */
export async function offerItemsOf(m: EntityManager, organizationId: string, uuids: string[]): Promise<OfferItemRow[]> {
  if (!uuids.length) return [];
  return scoped(m, organizationId).query<OfferItemRow[]>(`SELECT ${SELECT} FROM ${FROM} WHERE o.organization_id = $org AND o.id = ANY($1::uuid[]) ORDER BY o.created_at, o.id`, [uuids]);
}
