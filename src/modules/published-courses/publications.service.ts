import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { newUuid } from '../../core/ids/ids';
import { scoped } from '../../core/database/scoped';
import { rowsOf } from '../../core/database/sql';
import { slugOf } from '../../core/http/slug-kit';
import { liveCourse } from '../../core/database/fragments';

export const SLUG_RE = /^[a-z0-9]+(-[a-z0-9]+)*$/;

/** The settings columns a publication or an update may set (both interfaces). */
const PUBLISH_COLUMNS = new Set([
  'is_hidden',
  'visible_on_catalog',
  'open_access',
  'strict_enforce_group_visibility',
  'visibility_override_type',
  'registration_required',
  'registration_starts_at',
  'registration_ends_at',
  'restrict_access_start_end_dates',
  'allow_self_service_reenroll',
  'unique_progress_per_enrollment',
  'require_all_prerequisites',
]);

/** One publication to make: decoded ids (null when undecodable), an explicit slug or none, and column values (PUBLISH_COLUMNS). */
export interface PublishRequest {
  courseId: string | null;
  domainId: string | null;
  slug?: string;
  values: Record<string, unknown>;
}

export type PublishRefusal = 'course' | 'domain' | 'already_published' | 'slug_invalid' | 'slug_taken';
export type PublishOutcome = { ok: true; id: string } | { ok: false; reason: PublishRefusal };

/** What each refusal says (both interfaces). */
export const PUBLISH_MESSAGES: Record<PublishRefusal, string> = {
  course: 'The course does not exist.',
  domain: 'The domain does not exist.',
  already_published: 'This course is already published on this domain.',
  slug_invalid: 'Enter a valid "slug" consisting of lowercase letters, numbers and hyphens.',
  slug_taken: 'A published course with this slug already exists on this domain.',
};

/** The registration (access) window rule: its end must not precede its start. */
export const WINDOW_MESSAGE = 'The end of the registration period must not precede its start.';
export const windowReversed = (starts: Date | null | undefined, ends: Date | null | undefined): boolean => !!starts && !!ends && ends < starts;

/** A course title's slug (at most 90 characters; `course` when nothing is left). */
export const slugify = (title: string): string => slugOf(title, 90, 'course');

/** What the slug statements need of a domain. */
type DomainRef = { id: string; organizationId: string };

/**
 * The publications of courses on domains, set-wise (both interfaces): publish, change settings,
 * unpublish and publish again, and the slugs, unique among a domain's live publications, that
 * publishing and a slug change take under the domain's advisory lock.
 */
@Injectable()
export class PublicationsService {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /**
   * Publish courses to domains (/v1 one, /v2 a batch), set-wise in one transaction: the domains
   * involved are locked (the same advisory lock as every publication and slug change on a domain,
   * so concurrent publications take turns), then one statement each reads the live courses, the
   * organization's domains, the (domain, course) pairs already live and the slugs in use; one
   * multi-row INSERT writes the accepted ones. Rules, in order: the course must be a live course of
   * the organization, the domain one of its domains, the course not already live on the domain
   * (earlier requests of the same call count), an explicit slug valid (SLUG_RE) and free on the
   * domain; without one the course title's slug, or its first free -2, -3... . Outcomes in order.
   */
  async publishMany(organizationId: string, requests: PublishRequest[]): Promise<PublishOutcome[]> {
    const courseIds = [...new Set(requests.map((r) => r.courseId).filter((id): id is string => !!id))];
    const domainIds = [...new Set(requests.map((r) => r.domainId).filter((id): id is string => !!id))];
    return scoped(this.ds, organizationId).transaction(async (tx, m) => {
      const domains = new Set(domainIds.length ? (await tx.query<{ id: string }[]>(`SELECT id FROM domains WHERE organization_id = $org AND id = ANY($1::uuid[])`, [domainIds])).map((d) => d.id) : []);
      const locked = [...domains].sort();
      // serialize publications on these domains (in one order: no deadlock between two batches)
      if (locked.length) await m.query(`SELECT pg_advisory_xact_lock(hashtextextended(d, 6)) FROM unnest($1::text[]) AS x(d)`, [locked]);
      const courses = new Map<string, string>(
        courseIds.length
          ? (await tx.query<{ id: string; title: string }[]>(`SELECT id, title FROM courses WHERE organization_id = $org AND id = ANY($1::uuid[]) AND ${liveCourse()}`, [courseIds])).map((c) => [
              c.id,
              c.title,
            ])
          : [],
      );
      const live = new Set<string>();
      if (locked.length && courses.size) {
        const rows: { domain_id: string; course_id: string }[] = await tx.query(
          `SELECT domain_id, course_id FROM published_courses
            WHERE organization_id = $org AND domain_id = ANY($1::uuid[]) AND course_id = ANY($2::uuid[]) AND unpublished_at IS NULL`,
          [locked, [...courses.keys()]],
        );
        for (const r of rows) live.add(`${r.domain_id}/${r.course_id}`);
      }
      // the slugs each accepted request wants (explicit, or the title's base)
      const out: PublishOutcome[] = [];
      const wanted: { index: number; domainId: string; courseId: string; slug: string; explicit: boolean }[] = [];
      requests.forEach((r, index) => {
        if (!r.courseId || !courses.has(r.courseId)) return void (out[index] = { ok: false, reason: 'course' });
        if (!r.domainId || !domains.has(r.domainId)) return void (out[index] = { ok: false, reason: 'domain' });
        const pair = `${r.domainId}/${r.courseId}`;
        if (live.has(pair)) return void (out[index] = { ok: false, reason: 'already_published' });
        if (r.slug !== undefined && !SLUG_RE.test(r.slug)) return void (out[index] = { ok: false, reason: 'slug_invalid' });
        live.add(pair);
        wanted.push({ index, domainId: r.domainId, courseId: r.courseId, slug: r.slug ?? slugify(courses.get(r.courseId)!), explicit: r.slug !== undefined });
      });
      if (!wanted.length) return out;
      const bases = [...new Set(wanted.map((w) => w.slug.toLowerCase()))];
      const taken: { domain_id: string; slug: string }[] = await tx.query(
        `SELECT domain_id, lower(slug) AS slug FROM published_courses
          WHERE organization_id = $org AND domain_id = ANY($1::uuid[]) AND unpublished_at IS NULL
            AND (lower(slug) = ANY($2::text[]) OR lower(slug) LIKE ANY($3::text[]))`,
        [[...new Set(wanted.map((w) => w.domainId))], bases, bases.map((b) => `${b.replace(/[\\%_]/g, '\\$&')}-%`)],
      );
      const inUse = new Set(taken.map((t) => `${t.domain_id}/${t.slug}`));
      const rows: { index: number; id: string; request: PublishRequest; slug: string }[] = [];
      for (const w of wanted) {
        let slug = w.slug;
        if (w.explicit) {
          if (inUse.has(`${w.domainId}/${slug.toLowerCase()}`)) {
            live.delete(`${w.domainId}/${w.courseId}`);
            out[w.index] = { ok: false, reason: 'slug_taken' };
            continue;
          }
        } else {
          for (let i = 2; inUse.has(`${w.domainId}/${slug}`); i++) slug = `${w.slug}-${i}`;
        }
        inUse.add(`${w.domainId}/${slug.toLowerCase()}`);
        rows.push({ index: w.index, id: newUuid(), request: requests[w.index], slug });
      }
      if (!rows.length) return out;
      const columns = [...new Set(rows.flatMap((r) => Object.keys(r.request.values)))].filter((c) => PUBLISH_COLUMNS.has(c));
      const params: unknown[] = [];
      const tuples = rows.map((r) => {
        const own = [r.id, r.request.courseId, r.request.domainId, r.slug].map((v) => {
          params.push(v);
          return `$${params.length}`;
        });
        const rest = columns.map((c) => {
          if (!(c in r.request.values)) return 'DEFAULT';
          params.push(r.request.values[c]);
          return `$${params.length}`;
        });
        return `($org, ${[...own, ...rest].join(', ')})`;
      });
      await tx.query(`INSERT INTO published_courses (organization_id, id, course_id, domain_id, slug${columns.map((c) => `, ${c}`).join('')}) VALUES ${tuples.join(', ')}`, params);
      for (const r of rows) out[r.index] = { ok: true, id: r.id };
      return out;
    });
  }

  /**
   * Update settings of the organization's published courses (live or not; their course not
   * deleted), set-wise: one UPDATE ... FROM (VALUES ...) over a JSON object of the columns to set
   * per row (a member present with null clears a timestamp). Returns the ids updated.
   */
  async updateSettings(organizationId: string, updates: Map<string, Record<string, unknown>>): Promise<Set<string>> {
    if (!updates.size) return new Set();
    const params: unknown[] = [];
    const tuples = [...updates].map(([id, values]) => {
      const known = Object.fromEntries(Object.entries(values).filter(([c]) => PUBLISH_COLUMNS.has(c)));
      params.push(id, JSON.stringify(known));
      return `($${params.length - 1}::uuid, $${params.length}::jsonb)`;
    });
    const set = [...PUBLISH_COLUMNS].map((c) => {
      const type = c.endsWith('_at') ? 'timestamptz' : c === 'visibility_override_type' ? 'text' : 'boolean';
      return `${c} = CASE WHEN v.j ? '${c}' THEN (v.j->>'${c}')::${type} ELSE pc.${c} END`;
    });
    const result: unknown = await scoped(this.ds, organizationId).query(
      `UPDATE published_courses AS pc SET ${set.join(', ')}, updated_at = date_trunc('milliseconds', now())
         FROM (VALUES ${tuples.join(', ')}) AS v(id, j)
        WHERE pc.id = v.id AND pc.organization_id = $org
          AND EXISTS (SELECT 1 FROM courses c WHERE c.id = pc.course_id AND c.organization_id = $org AND c.deleted_at IS NULL)
        RETURNING pc.id`,
      params,
    );
    return new Set(rowsOf<{ id: string }>(result).map((r) => r.id));
  }

  /**
   * Take a published course off its domain (unpublished_at set; the row and its history stay; the
   * slug is free for others). Already unpublished: nothing changes. False when no such row.
   */
  async setUnpublished(organizationId: string, id: string): Promise<void> {
    await scoped(this.ds, organizationId).query(
      `UPDATE published_courses SET unpublished_at = date_trunc('milliseconds', now()), updated_at = date_trunc('milliseconds', now())
       WHERE id = $1 AND organization_id = $org AND unpublished_at IS NULL`,
      [id],
    );
  }

  /**
   * Put an unpublished course back on its domain (under the domain's lock): refused when the course
   * is live there again through another row; its slug when still free, else the first free -2, -3... .
   * Already live: nothing changes.
   */
  async republish(organizationId: string, id: string): Promise<{ ok: true } | { ok: false; reason: 'already_published' }> {
    return scoped(this.ds, organizationId).transaction(async (tx, m) => {
      const [row]: { domain_id: string; course_id: string; slug: string; unpublished_at: Date | null }[] = await tx.query(
        `SELECT domain_id, course_id, slug, unpublished_at FROM published_courses WHERE id = $1 AND organization_id = $org`,
        [id],
      );
      if (!row || row.unpublished_at === null) return { ok: true };
      await m.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 6))`, [row.domain_id]);
      const [again]: unknown[] = await tx.query(`SELECT 1 FROM published_courses WHERE organization_id = $org AND domain_id = $1 AND course_id = $2 AND unpublished_at IS NULL`, [
        row.domain_id,
        row.course_id,
      ]);
      if (again) return { ok: false, reason: 'already_published' };
      const domain = { id: row.domain_id, organizationId };
      const slug = (await this.slugTaken(m, domain, row.slug)) ? await this.freeSlug(m, domain, row.slug.toLowerCase()) : row.slug;
      await tx.query(
        `UPDATE published_courses SET unpublished_at = NULL, slug = $2, updated_at = date_trunc('milliseconds', now())
         WHERE id = $1 AND organization_id = $org AND unpublished_at IS NOT NULL`,
        [id, slug],
      );
      return { ok: true };
    });
  }

  /** Whether `slug` is live on the domain (case-insensitive), `exceptId` aside. */
  async slugTaken(m: { query: DataSource['query'] }, domain: DomainRef, slug: string, exceptId?: string): Promise<boolean> {
    const rows = await scoped(m, domain.organizationId).query<unknown[]>(
      `SELECT 1 FROM published_courses WHERE domain_id = $1 AND organization_id = $org AND lower(slug) = lower($2) AND unpublished_at IS NULL AND id <> $3::uuid`,
      [domain.id, slug, exceptId ?? '00000000-0000-0000-0000-000000000000'],
    );
    return rows.length > 0;
  }

  /** `base`, or base-2, base-3, ... : the first slug free on the domain. */
  private async freeSlug(m: { query: DataSource['query'] }, domain: DomainRef, base: string): Promise<string> {
    const rows = await scoped(m, domain.organizationId).query<{ slug: string }[]>(
      `SELECT lower(slug) AS slug FROM published_courses WHERE domain_id = $1 AND organization_id = $org AND unpublished_at IS NULL AND (lower(slug) = $2 OR lower(slug) LIKE $3)`,
      [domain.id, base, `${base.replace(/[\\%_]/g, '\\$&')}-%`],
    );
    const taken = new Set(rows.map((r) => r.slug));
    if (!taken.has(base)) return base;
    for (let i = 2; ; i++) if (!taken.has(`${base}-${i}`)) return `${base}-${i}`;
  }
}
