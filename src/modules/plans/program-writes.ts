import { randomBytes } from 'node:crypto';
import { EntityManager } from 'typeorm';
import { ValidationFailed } from '../../core/http/api-error';
import { decodeId } from '../../core/ids/ids';

/**
 * What plan and course-series writes share (plans own this file; course-series imports it): slugs
 * made from a name and kept unique per domain by the tables' partial unique indexes, and the
 * published courses and paths a write names, which must be live ones of the same domain.
 */
const fieldError = (field: string, message: string) => new ValidationFailed([{ field, message }], 400);

export function slugFrom(name: string, fallback: string): string {
  const s = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 90)
    .replace(/-+$/g, '');
  return s || fallback;
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
export async function resolveItems(
  m: EntityManager,
  organizationId: string,
  domainId: string,
  kind: 'publishedCourse' | 'publishedPath',
  refs: { id: string }[],
  field: string,
): Promise<string[]> {
  const uuids = refs.map((r) => decodeId(kind, r.id));
  const seen = new Set<string>();
  refs.forEach((r, i) => {
    if (uuids[i] && seen.has(uuids[i]!)) throw fieldError(field, `The id "${r.id}" appears more than once.`);
    if (uuids[i]) seen.add(uuids[i]!);
  });
  const table = kind === 'publishedCourse' ? 'published_courses' : 'published_paths';
  const known = uuids.filter((u): u is string => !!u);
  const found: { id: string }[] = known.length
    ? await m.query(`SELECT id FROM ${table} WHERE id = ANY($1::uuid[]) AND organization_id = $2 AND domain_id = $3 AND unpublished_at IS NULL`, [known, organizationId, domainId])
    : [];
  const live = new Set(found.map((r) => r.id));
  refs.forEach((r, i) => {
    if (!uuids[i] || !live.has(uuids[i]!)) throw fieldError(field, `Invalid id "${String(r.id).slice(0, 200)}" - object does not exist (a live ${kind === 'publishedCourse' ? 'published course' : 'published path'} of this domain).`);
  });
  return uuids as string[];
}
