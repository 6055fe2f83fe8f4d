import { randomBytes } from 'node:crypto';
import { EntityManager } from 'typeorm';
import { scoped } from '../../core/database/scoped';
import { notFound, ValidationFailed } from '../../core/http/api-error';
import { decodeId, IdType } from '../../core/ids/ids';
import { insertDefaultOffer, OfferOwner } from '../commerce/offers';

/**
 * What plan and course-series writes share (plans own this file; course-series imports it): slugs
 * made from a name and kept unique per domain by the tables' partial unique indexes, the
 * published courses and paths a write names, which must be live ones of the same domain, and the
 * program's rows themselves (created with their offer, locked while written, soft-deleted).
 */
const fieldError = (field: string, message: string) => new ValidationFailed([{ field, message }], 400);

/** Lowercase letters and digits, accents folded, every other run a dash, at most `max` characters; `fallback` when nothing is left. */
export function slugFrom(name: string, fallback: string, max = 90): string {
  const words = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .split(/[^a-z0-9]+/);
  return (
    words
      .filter((w) => w)
      .join('-')
      .slice(0, max)
      .replace(/-+$/g, '') || fallback
  );
}

/**
 * Run `insert(slug)` (an INSERT ... ON CONFLICT DO NOTHING RETURNING on the slug index) with the
 * given slug; when it is taken: a slug the caller chose is a 400 on `slug`, a derived one gets a
 * random suffix and is tried again. Never two live rows with one slug, also under concurrency.
 */
export async function insertWithSlug<T>(slug: string, chosen: boolean, what: string, insert: (slug: string) => Promise<T | undefined>): Promise<T> {
  for (let i = 0; i < 8; i++) {
    const candidate = i === 0 ? slug : `${slug.slice(0, 90)}-${randomBytes(3).toString('hex')}`;
    const row = await insert(candidate);
    if (row) return row;
    if (chosen) break;
  }
  throw slugTaken(what);
}

export const slugTaken = (what: string) => fieldError('slug', `A ${what} with this slug already exists on this domain.`);

/**
 * The uuids of the published courses (or paths) `refs` names, in order: each a live one of the
 * domain, no duplicates; anything else is a 400 on `field` naming the id. One query.
 */
export async function resolveItems(m: EntityManager, organizationId: string, domainId: string, kind: 'publishedCourse' | 'publishedPath', refs: { id: string }[], field: string): Promise<string[]> {
  const uuids = refs.map((r) => decodeId(kind, r.id));
  const seen = new Set<string>();
  refs.forEach((r, i) => {
    if (uuids[i] && seen.has(uuids[i]!)) throw fieldError(field, `The id "${r.id}" appears more than once.`);
    if (uuids[i]) seen.add(uuids[i]!);
  });
  const table = kind === 'publishedCourse' ? 'published_courses' : 'published_paths';
  const known = uuids.filter((u): u is string => !!u);
  const found = known.length
    ? await scoped(m, organizationId).query<{ id: string }[]>(`SELECT id FROM ${table} WHERE id = ANY($1::uuid[]) AND organization_id = $org AND domain_id = $2 AND unpublished_at IS NULL`, [
        known,
        domainId,
      ])
    : [];
  const live = new Set(found.map((r) => r.id));
  refs.forEach((r, i) => {
    if (!uuids[i] || !live.has(uuids[i]!))
      throw fieldError(field, `Invalid id "${String(r.id).slice(0, 200)}" - object does not exist (a live ${kind === 'publishedCourse' ? 'published course' : 'published path'} of this domain).`);
  });
  return uuids as string[];
}

/** A program table (plans, course_series): its rows, their public id type, their offer's owner column, and their ordered items. */
export interface Program {
  table: 'plans' | 'course_series';
  kind: IdType;
  offerOwner: OfferOwner;
  /** `a plan`, `a course series` in messages */
  what: string;
  items: { table: 'plan_items' | 'course_series_items'; owner: 'plan_id' | 'course_series_id' };
}

/**
 * A new program row of the domain with `columns`, its slug unique among the domain's live rows
 * (`insertWithSlug`: a chosen slug taken is a 400, a derived one gets a suffix), and its offer
 * (described by `name`), in the caller's transaction. Returns the row's uuid.
 */
export async function insertProgram(
  m: EntityManager,
  program: Program,
  organizationId: string,
  domainId: string,
  slug: { slug: string; chosen: boolean },
  columns: Record<string, unknown>,
  name: string,
): Promise<string> {
  const names = Object.keys(columns);
  const row = await insertWithSlug(slug.slug, slug.chosen, program.what, async (candidate) => {
    const [r] = await scoped(m, organizationId).query<{ id: string }[]>(
      `INSERT INTO ${program.table} (organization_id, domain_id, slug, ${names.join(', ')}) VALUES ($org, $1, $2, ${names.map((_, i) => `$${i + 3}`).join(', ')})
       ON CONFLICT (organization_id, domain_id, slug) WHERE deleted_at IS NULL DO NOTHING RETURNING id`,
      [domainId, candidate, ...Object.values(columns)],
    );
    return r;
  });
  await insertDefaultOffer(m, organizationId, program.offerOwner, row.id, name);
  return row.id;
}

/** The live program row of the domain behind a public id, locked for the write (FOR UPDATE); 404 when there is none. */
export async function lockLive(m: EntityManager, program: Program, organizationId: string, domainId: string, publicId: string): Promise<{ id: string }> {
  const uuid = decodeId(program.kind, publicId);
  const [row] = uuid
    ? await scoped(m, organizationId).query<{ id: string }[]>(`SELECT id FROM ${program.table} WHERE id = $1 AND domain_id = $2 AND organization_id = $org AND deleted_at IS NULL FOR UPDATE`, [
        uuid,
        domainId,
      ])
    : [];
  if (!row) throw notFound();
  return row;
}

/** The program's items in `column` (published_course_id, published_path_id) become `ids`, in that order. */
export async function replaceItems(m: EntityManager, program: Program, organizationId: string, ownerId: string, column: string, ids: string[]): Promise<void> {
  const { table, owner } = program.items;
  const db = scoped(m, organizationId);
  await db.query(`DELETE FROM ${table} WHERE ${owner} = $1 AND organization_id = $org AND ${column} IS NOT NULL`, [ownerId]);
  if (!ids.length) return;
  await db.query(
    `INSERT INTO ${table} (organization_id, ${owner}, ${column}, "order")
     SELECT $org, $1, x.id, x.ord - 1 FROM unnest($2::uuid[]) WITH ORDINALITY AS x(id, ord)`,
    [ownerId, ids],
  );
}

/** Soft delete: the row leaves every read; its items, enrollments and offer stay for the record. */
export async function softDelete(m: EntityManager, program: Program, organizationId: string, id: string): Promise<void> {
  await scoped(m, organizationId).query(`UPDATE ${program.table} SET deleted_at = now(), updated_at = date_trunc('milliseconds', now()) WHERE id = $1 AND organization_id = $org`, [id]);
}
