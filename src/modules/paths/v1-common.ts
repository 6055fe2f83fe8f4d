import { EntityManager } from 'typeorm';
import type { Principal } from '../../core/auth/principal';
import { notFound } from '../../core/http/api-error';
import type { Domain } from '../domains/domain.entity';
import type { DomainsService } from '../domains/domains.service';
import { decodeId, encodeId } from '../../core/ids/ids';
import { fullName } from '../students/students.presenter';

/**
 * Helpers shared by this area's /v1 controllers and services (access codes, course series, plans,
 * published paths): body-member presence rules, query parameter parsing with 400 field errors,
 * timestamps, and the offer / enrollment / user blocks of the v1 objects. Every loader works
 * set-wise (one query for a whole page) and filters on the organization.
 */

export { Present, PresentNotNull, fieldError, paramError, strParam, boolParam, iso, parseTimestamp } from '../../core/http/v1-params';
import { fieldError, iso, parseTimestamp } from '../../core/http/v1-params';

/** The learner-facing base URL of a domain. */
export const domainBase = (domainName: string) => `https://${domainName}`;

// ---------------------------------------------------------------------------------------------
// Offers

export type OfferOwner = 'published_path_id' | 'plan_id' | 'course_series_id' | 'published_course_id';

export interface OfferRow {
  id: string;
  owner_id: string;
  registration_open: boolean;
  price_cents: number | null;
  currency_code: string;
}

/** The default offer of each owner (the oldest default one), keyed by owner uuid. One query. */
export async function loadOffers(m: EntityManager, organizationId: string, owner: OfferOwner, ids: string[]): Promise<Map<string, OfferRow>> {
  const out = new Map<string, OfferRow>();
  if (!ids.length) return out;
  const rows: OfferRow[] = await m.query(
    `SELECT DISTINCT ON (${owner}) id, ${owner} AS owner_id, registration_open, price_cents, currency_code
       FROM offers WHERE organization_id = $1 AND ${owner} = ANY($2::uuid[]) AND is_default
      ORDER BY ${owner}, created_at, id`,
    [organizationId, [...new Set(ids)]],
  );
  for (const r of rows) out.set(r.owner_id, r);
  return out;
}

export const money = (cents: number, currency: string) => ({ amount: (cents / 100).toFixed(2), currency_code: currency });

/** `offer {id, registration_open, registration_url, price}`; price is null for a free offer. */
export function presentOffer(o: OfferRow | undefined, domainName: string) {
  if (!o) return null;
  const id = encodeId('offer', o.id);
  return {
    id,
    registration_open: o.registration_open,
    registration_url: `${domainBase(domainName)}/checkout/${id}`,
    price: o.price_cents === null || o.price_cents === undefined ? null : money(Number(o.price_cents), o.currency_code),
  };
}

// ---------------------------------------------------------------------------------------------
// Users (the organization's learners) and enrollments

export interface UserRow {
  id: string;
  email: string;
  first_name: string;
  last_name: string;
}

/** Users of the organization by uuid. One query. */
export async function loadUsers(m: EntityManager, organizationId: string, ids: string[]): Promise<Map<string, UserRow>> {
  const out = new Map<string, UserRow>();
  if (!ids.length) return out;
  const rows: UserRow[] = await m.query(`SELECT id, email, first_name, last_name FROM users WHERE organization_id = $1 AND id = ANY($2::uuid[])`, [
    organizationId,
    [...new Set(ids)],
  ]);
  for (const r of rows) out.set(r.id, r);
  return out;
}

export function presentUser(u: UserRow | undefined, uuid: string) {
  return { id: encodeId('student', uuid), email: u?.email ?? null, first_name: u?.first_name ?? null, last_name: u?.last_name ?? null, full_name: u ? fullName(u.first_name, u.last_name) : null };
}

/** What an enrollment stores about the purchase it came from (create body `purchase`). */
export interface StoredPurchase {
  purchase_price: { amount: string; currency_code: string };
  purchase_state: string;
  purchased_at: string | null;
  tax_price_cents: number | null;
}

export interface EnrollmentLike {
  id: string;
  userId: string;
  enrolledAt: Date;
  expiresAt: Date | null;
  active: boolean;
  purchase: StoredPurchase | null;
}

export function presentPurchase(p: StoredPurchase | null, offer: OfferRow | undefined) {
  if (!p) return null;
  return {
    order_id: null,
    offer_price: offer && offer.price_cents !== null ? money(Number(offer.price_cents), offer.currency_code) : { amount: '0.00', currency_code: p.purchase_price.currency_code },
    purchase_price: p.purchase_price,
    quantity: 1,
    purchase_state: p.purchase_state,
    payment_processor: 'NONE',
    purchase_id: null,
    purchased_at: p.purchased_at,
    tax_price_cents: p.tax_price_cents,
  };
}

export function presentEnrollment(type: 'planEnrollment' | 'publishedPathEnrollment', e: EnrollmentLike, users: Map<string, UserRow>, offer: OfferRow | undefined) {
  return {
    id: encodeId(type, e.id),
    user: presentUser(users.get(e.userId), e.userId),
    enrolled_at: iso(e.enrolledAt),
    expires_at: iso(e.expiresAt),
    active: e.active,
    purchase: presentPurchase(e.purchase, offer),
  };
}

// ---------------------------------------------------------------------------------------------
// Enrollment bodies (plan and published-path enrollments share them)

export interface EnrollmentInput {
  userUuid: string;
  /** null when the body has none: the enrollment starts now */
  enrolledAt: Date | null;
  expiresAt: Date | null;
  active: boolean;
  purchase: StoredPurchase | null;
}

interface EnrollmentCreateBody {
  user: { id: string };
  enrolled_at?: unknown;
  expires_at?: unknown;
  active?: boolean | null;
  purchase?: { purchase_price?: { amount?: string; currency_code?: string }; purchase_state?: string; purchased_at?: unknown; tax_price_cents?: number | null } | null;
}

const invalidPk = (field: string, id: string) => fieldError(field, `Invalid pk "${id.slice(0, 64)}" - object does not exist.`);

/** Validate a create body; the user must be a user (learner) of the organization (else 400 on `user`). */
export async function parseEnrollmentCreate(m: EntityManager, organizationId: string, body: EnrollmentCreateBody): Promise<EnrollmentInput> {
  const enrolledAt = parseTimestamp('enrolled_at', body.enrolled_at, false) ?? null;
  const expiresAt = parseTimestamp('expires_at', body.expires_at, true) ?? null;
  let purchase: StoredPurchase | null = null;
  if (body.purchase) {
    const purchasedAt = parseTimestamp('purchase.purchased_at', body.purchase.purchased_at, true);
    purchase = {
      purchase_price: {
        amount: Number(body.purchase.purchase_price?.amount ?? '0').toFixed(2),
        currency_code: (body.purchase.purchase_price?.currency_code ?? 'USD').toUpperCase(),
      },
      purchase_state: body.purchase.purchase_state ?? 'SUCCESS',
      purchased_at: iso(purchasedAt ?? enrolledAt ?? new Date()),
      tax_price_cents: body.purchase.tax_price_cents ?? null,
    };
  }
  const userUuid = decodeId('student', body.user.id);
  if (!userUuid) throw invalidPk('user', body.user.id);
  const found = await m.query(`SELECT 1 FROM users WHERE organization_id = $1 AND id = $2`, [organizationId, userUuid]);
  if (!found.length) throw invalidPk('user', body.user.id);
  return { userUuid, enrolledAt, expiresAt, active: body.active ?? true, purchase };
}

/**
 * Create a plan or published-path enrollment, or return the existing one (created = false):
 * - the user must already be a member of the domain (`domain_users`), else 400 on `user`;
 * - with `enrolled_at`, an enrollment of the user with that same `enrolled_at` is returned;
 *   without it, the user's latest active, unexpired enrollment is returned;
 * - creates for one (object, user) are serialized by a transaction-scoped advisory lock, so
 *   concurrent retries make exactly one row.
 * Runs inside the caller's transaction.
 */
export async function insertEnrollment(
  m: EntityManager,
  o: {
    organizationId: string;
    domainId: string;
    table: 'plan_enrollments' | 'published_path_enrollments';
    owner: { column: 'plan_id' | 'published_path_id'; id: string };
    /** extra columns (fixed names) and values, e.g. path_id */
    extra?: { column: 'path_id'; value: string };
    input: EnrollmentInput;
  },
): Promise<{ id: string; created: boolean }> {
  const { input } = o;
  const member = await m.query(`SELECT 1 FROM domain_users WHERE domain_id = $1 AND user_id = $2 AND organization_id = $3`, [o.domainId, input.userUuid, o.organizationId]);
  if (!member.length) throw fieldError('user', 'The user is not a member of this domain: add them to the domain first.');
  await m.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 7))`, [`${o.table}:${o.owner.id}:${input.userUuid}`]);
  const [existing] = input.enrolledAt
    ? await m.query(`SELECT id FROM ${o.table} WHERE ${o.owner.column} = $1 AND user_id = $2 AND enrolled_at = $3 LIMIT 1`, [o.owner.id, input.userUuid, input.enrolledAt])
    : await m.query(
        `SELECT id FROM ${o.table} WHERE ${o.owner.column} = $1 AND user_id = $2 AND active AND (expires_at IS NULL OR expires_at > now())
          ORDER BY enrolled_at DESC, id LIMIT 1`,
        [o.owner.id, input.userUuid],
      );
  if (existing) return { id: existing.id, created: false };
  const cols = ['organization_id', o.owner.column, 'user_id', 'enrolled_at', 'expires_at', 'active', 'purchase', ...(o.extra ? [o.extra.column] : [])];
  const values = [
    o.organizationId,
    o.owner.id,
    input.userUuid,
    input.enrolledAt,
    input.expiresAt,
    input.active,
    input.purchase ? JSON.stringify(input.purchase) : null,
    ...(o.extra ? [o.extra.value] : []),
  ];
  const placeholders = values.map((_, i) => (i === 3 ? `COALESCE($4, date_trunc('milliseconds', now()))` : i === 6 ? `$7::jsonb` : `$${i + 1}`));
  const [row] = await m.query(`INSERT INTO ${o.table} (${cols.join(', ')}) VALUES (${placeholders.join(', ')}) RETURNING id`, values);
  return { id: row.id, created: true };
}

export function parseEnrollmentUpdate(body: { expires_at?: unknown; active?: boolean }): { expiresAt?: Date | null; active?: boolean } {
  return { expiresAt: parseTimestamp('expires_at', body.expires_at, true), active: body.active };
}

export { invalidPk };

/**
 * The domain named in a /v1 path, within the caller's organization, or 404 (another organization's
 * name, an unknown one, or one that cannot be a domain name at all, e.g. with NUL characters).
 */
export function requireDomain(domains: DomainsService, p: Principal, name: string): Promise<Domain> {
  return domains.requireByName(p, name);
}
