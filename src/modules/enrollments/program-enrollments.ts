import { EntityManager } from 'typeorm';
import { fieldError, parseTimestamp } from '../../core/http/v1-rules';
import { decodeId } from '../../core/ids/ids';
import { parsePurchase, PurchaseBody, StoredPurchase } from '../commerce/purchases';
import { ANONYMIZED_USER, userState } from '../students/user-refs';
import { scoped } from '../../core/database/scoped';

/**
 * Plan and published-path enrollments (/v1): the create and update bodies they share and the
 * insert rule. The rows live in the owner's table (plans/ owns plan_enrollments, paths/ owns
 * published_path_enrollments): the owner's service calls insertEnrollment inside its own
 * transaction, naming its table. The course enrollments of published courses are in
 * enrollments.v1.service.ts.
 */

export interface EnrollmentLike {
  id: string;
  userId: string;
  enrolledAt: Date;
  expiresAt: Date | null;
  active: boolean;
  purchase: StoredPurchase | null;
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
  purchase?: PurchaseBody | null;
}

const invalidPk = (field: string, id: string) => fieldError(field, `Invalid pk "${id.slice(0, 64)}" - object does not exist.`);

/** Validate a create body; the user must be a user (learner) of the organization (else 400 on `user`). */
export async function parseEnrollmentCreate(m: EntityManager, organizationId: string, body: EnrollmentCreateBody): Promise<EnrollmentInput> {
  const enrolledAt = parseTimestamp('enrolled_at', body.enrolled_at, false) ?? null;
  const expiresAt = parseTimestamp('expires_at', body.expires_at, true) ?? null;
  const purchase = parsePurchase(body.purchase, enrolledAt);
  const userUuid = decodeId('student', body.user.id);
  if (!userUuid) throw invalidPk('user', body.user.id);
  const state = await userState(m, organizationId, userUuid);
  if (state === 'absent') throw invalidPk('user', body.user.id);
  if (state === 'anonymized') throw fieldError('user', ANONYMIZED_USER);
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
  const member = await scoped(m, o.organizationId).query<unknown[]>(`SELECT 1 FROM domain_users WHERE domain_id = $1 AND user_id = $2 AND organization_id = $org`, [o.domainId, input.userUuid]);
  if (!member.length) throw fieldError('user', 'The user is not a member of this domain: add them to the domain first.');
  await m.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 7))`, [`${o.table}:${o.owner.id}:${input.userUuid}`]);
  const [existing] = input.enrolledAt
    ? await scoped(m, o.organizationId).query<{ id: string }[]>(`SELECT id FROM ${o.table} WHERE ${o.owner.column} = $1 AND user_id = $2 AND enrolled_at = $3 AND organization_id = $org LIMIT 1`, [
        o.owner.id,
        input.userUuid,
        input.enrolledAt,
      ])
    : await scoped(m, o.organizationId).query<{ id: string }[]>(
        `SELECT id FROM ${o.table} WHERE ${o.owner.column} = $1 AND user_id = $2 AND organization_id = $org AND active AND (expires_at IS NULL OR expires_at > now())
          ORDER BY enrolled_at DESC, id LIMIT 1`,
        [o.owner.id, input.userUuid],
      );
  if (existing) return { id: existing.id, created: false };
  const cols = ['organization_id', o.owner.column, 'user_id', 'enrolled_at', 'expires_at', 'active', 'purchase', ...(o.extra ? [o.extra.column] : [])];
  const values = [o.owner.id, input.userUuid, input.enrolledAt, input.expiresAt, input.active, input.purchase ? JSON.stringify(input.purchase) : null, ...(o.extra ? [o.extra.value] : [])];
  // the organization is `$org`, the first column; the values are the other columns, `$1..$n`
  const placeholders = ['$org', ...values.map((_, i) => (i === 2 ? `COALESCE($3, date_trunc('milliseconds', now()))` : i === 5 ? `$6::jsonb` : `$${i + 1}`))];
  const [row] = await scoped(m, o.organizationId).query<{ id: string }[]>(`INSERT INTO ${o.table} (${cols.join(', ')}) VALUES (${placeholders.join(', ')}) RETURNING id`, values);
  return { id: row.id, created: true };
}

/**
 * Point new plan or published-path enrollments at the purchase recorded for them (commerce
 * recordEnrollmentPurchases): their `purchase` jsonb becomes the purchase's block (purchase_id,
 * order_id, payment_processor, quantity with the price). One statement, in the caller's transaction.
 */
export async function linkEnrollmentPurchases(
  m: EntityManager,
  organizationId: string,
  table: 'plan_enrollments' | 'published_path_enrollments',
  links: { id: string; purchase: StoredPurchase }[],
): Promise<void> {
  if (!links.length) return;
  await scoped(m, organizationId).query(`UPDATE ${table} t SET purchase = v.purchase FROM unnest($1::uuid[], $2::jsonb[]) AS v(id, purchase) WHERE t.organization_id = $org AND t.id = v.id`, [
    links.map((l) => l.id),
    links.map((l) => JSON.stringify(l.purchase)),
  ]);
}

/** Deactivate (or reactivate) plan or published-path enrollments by id, in the caller's transaction (a refunded purchase, commerce). */
export async function setProgramEnrollmentsActive(m: EntityManager, organizationId: string, table: 'plan_enrollments' | 'published_path_enrollments', ids: string[], active: boolean): Promise<void> {
  if (!ids.length) return;
  await scoped(m, organizationId).query(`UPDATE ${table} SET active = $2, updated_at = date_trunc('milliseconds', now()) WHERE organization_id = $org AND id = ANY($1::uuid[])`, [ids, active]);
}

export function parseEnrollmentUpdate(body: { expires_at?: unknown; active?: boolean }): { expiresAt?: Date | null; active?: boolean } {
  return { expiresAt: parseTimestamp('expires_at', body.expires_at, true), active: body.active };
}

export { invalidPk };
