import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { Principal } from '../../core/auth/principal';
import type { ItemOutcome, ValidItem } from '../../core/batch/batch';
import { poolRead, PoolRead, poolRowOr404, TEXT_TIMESTAMPS } from '../../core/database/pool-reads';
import { scoped } from '../../core/database/scoped';
import { ApiError } from '../../core/http/api-error';
import { decodeId } from '../../core/ids/ids';
import type { PageRequest } from '../../core/pagination/cursor-page';
import { itemDateTime } from '../../core/http/v2-dates';
import { PublishedCourseCreateItemV2, PublishedCourseSettingsV2, PublishedCourseUpdateItemV2, SETTINGS_MEMBERS } from './dto/published-course.v2.dto';
import { PUBLISH_MESSAGES, PublicationsService, PublishRequest, WINDOW_MESSAGE, windowReversed } from './publications.service';
import type { PublishedCourseV2Row } from './published-courses.store';
import { publicIdsOf } from '../../core/ids/public-ids';
import { updateLastWins } from '../../core/routes/v2-batch';

export interface PublishedCourseFiltersV2 {
  domainUuid?: string;
  courseUuid?: string;
  live?: boolean;
  /** filter[updated_since]: changed at or after, ordered by last change (updated_at, id) */
  updatedSince?: Date;
}

/** /v2 member -> published_courses column (the access window is the registration window /v1 shows). */
const COLUMN: Record<(typeof SETTINGS_MEMBERS)[number], string> = {
  is_hidden: 'is_hidden',
  visible_on_catalog: 'visible_on_catalog',
  open_access: 'open_access',
  strict_enforce_group_visibility: 'strict_enforce_group_visibility',
  visibility_override_type: 'visibility_override_type',
  access_period_starts_at: 'registration_starts_at',
  access_period_ends_at: 'registration_ends_at',
  restrict_access_start_end_dates: 'restrict_access_start_end_dates',
  allow_self_service_reenroll: 'allow_self_service_reenroll',
  unique_progress_per_enrollment: 'unique_progress_per_enrollment',
  require_all_prerequisites: 'require_all_prerequisites',
};

/** The published defaults of a /v2 publication (PublishedCoursePublishAttributes). */
const PUBLISH_DEFAULTS: Record<string, unknown> = {
  visible_on_catalog: false,
  visibility_override_type: 'GROUP',
  unique_progress_per_enrollment: true,
  require_all_prerequisites: true,
};

/** A published course whose course is deleted does not exist (as on /v1); unpublished ones do on /v2 (live=false). */
const FROM = `published_courses pc JOIN courses c ON c.id = pc.course_id AND c.organization_id = pc.organization_id AND c.deleted_at IS NULL`;

/** The columns of PublishedCourseV2Row (what the resource shows), not `pc.*`: no column read and parsed for nothing. */
const COLUMNS = `pc.id, pc.course_id, pc.domain_id, pc.slug, pc.external_id, pc.is_hidden, pc.visible_on_catalog, pc.open_access, pc.strict_enforce_group_visibility,
       pc.visibility_override_type, pc.registration_starts_at, pc.registration_ends_at, pc.restrict_access_start_end_dates, pc.allow_self_service_reenroll,
       pc.unique_progress_per_enrollment, pc.require_all_prerequisites, pc.unpublished_at, pc.created_at, pc.updated_at`;

/** A page's statement: the filters' conditions and keyset position in `where` (each ` AND ...`), LIMIT its `$limit`. */
const listSql = (where: string, limit: number, by: 'created_at' | 'updated_at' = 'created_at') =>
  `SELECT ${COLUMNS} FROM ${FROM} WHERE pc.organization_id = $org${where} ORDER BY pc.${by}, pc.id LIMIT $${limit}`;

/** The fixed reads, as pg named statements (parsed and planned once per pooled connection). */
const READS: Record<'list' | 'listAfter' | 'get', PoolRead> = {
  list: { name: 'published_courses_v2_list', sql: listSql('', 1), types: TEXT_TIMESTAMPS },
  listAfter: { name: 'published_courses_v2_list_after', sql: listSql(' AND (pc.created_at, pc.id) > ($1::timestamptz, $2::uuid)', 3), types: TEXT_TIMESTAMPS },
  get: { name: 'published_courses_v2_get', sql: `SELECT ${COLUMNS} FROM ${FROM} WHERE pc.organization_id = $org AND pc.id = $1`, types: TEXT_TIMESTAMPS },
};

type Failure = { ok: false; code: 'validation_error'; detail: string; pointer: string };

/**
 * /v2 published courses over PublicationsService (the /v1 rules: publishMany, updateSettings,
 * setUnpublished, republish): the batch item outcomes, the reads and the cursor page.
 */
@Injectable()
export class PublishedCoursesV2Service {
  constructor(
    private readonly publications: PublicationsService,
    @InjectDataSource() private readonly ds: DataSource,
  ) {}

  /**
   * Oldest first (created_at, id); each filter narrows, an undecodable id matches nothing. One
   * statement sent to the pg pool (poolRead), the timestamps kept as pg's text (TEXT_TIMESTAMPS: no
   * Date parsed and printed again per row); the unfiltered page (first or after a cursor) is a
   * named statement.
   */
  async list(p: Principal, page: PageRequest, f: PublishedCourseFiltersV2): Promise<PublishedCourseV2Row[]> {
    const params: unknown[] = [];
    let where = '';
    if (f.domainUuid !== undefined) where += ` AND pc.domain_id = $${params.push(f.domainUuid)}::uuid`;
    if (f.courseUuid !== undefined) where += ` AND pc.course_id = $${params.push(f.courseUuid)}::uuid`;
    if (f.live !== undefined) where += f.live ? ' AND pc.unpublished_at IS NULL' : ' AND pc.unpublished_at IS NOT NULL';
    // filter[updated_since]: changed at or after, ordered by last change (docs/decisions/data-out.md), on published_courses_org_updated_idx
    if (f.updatedSince) where += ` AND pc.updated_at >= $${params.push(f.updatedSince)}`;
    const by = f.updatedSince ? 'updated_at' : 'created_at';
    const filtered = where !== '';
    if (page.after) where += ` AND (pc.${by}, pc.id) > ($${params.push(page.after.t)}::timestamptz, $${params.push(page.after.id)}::uuid)`;
    const read = filtered ? { sql: listSql(where, params.length + 1, by), types: TEXT_TIMESTAMPS } : page.after ? READS.listAfter : READS.list;
    params.push(page.size + 1);
    return poolRead(this.ds, p.organizationId, read, params);
  }

  /** One published course by public id (a named statement, timestamps as pg's text), or the 404 a malformed, unknown or foreign id gets alike. */
  get(p: Principal, publicId: string): Promise<PublishedCourseV2Row> {
    return poolRowOr404(this.ds, p.organizationId, 'publishedCourse', publicId, READS.get, 'Published course not found.');
  }

  private rows(organizationId: string, uuids: string[]): Promise<PublishedCourseV2Row[]> {
    if (!uuids.length) return Promise.resolve([]);
    return scoped(this.ds, organizationId).query(`SELECT ${COLUMNS} FROM ${FROM} WHERE pc.organization_id = $org AND pc.id = ANY($1::uuid[])`, [uuids]);
  }

  /**
   * The settings of one item as columns, or the item's validation_error: date-times without an
   * offset, a window whose end precedes its start (the /v1 rule). Null booleans are left out
   * (default / unchanged); a null window bound is kept (clears it). Members outside the operation's
   * schema (additionalProperties: false) were refused by validation (@Closed on the attribute classes).
   */
  private settings(a: PublishedCourseSettingsV2 | undefined): Record<string, unknown> | Failure {
    const values: Record<string, unknown> = {};
    const dates: Record<string, Date | null | undefined> = {};
    for (const m of SETTINGS_MEMBERS) {
      const v = (a as Record<string, unknown> | undefined)?.[m];
      if (m === 'access_period_starts_at' || m === 'access_period_ends_at') {
        if (v === undefined) continue;
        const d = itemDateTime(v as string | null, `/attributes/${m}`);
        if ('error' in d) return { ok: false, code: 'validation_error', detail: d.error, pointer: d.pointer };
        dates[m] = d.value;
        values[COLUMN[m]] = d.value;
      } else if (v !== undefined && v !== null) {
        values[COLUMN[m]] = v;
      }
    }
    if (windowReversed(dates.access_period_starts_at, dates.access_period_ends_at)) {
      return { ok: false, code: 'validation_error', detail: `access_period_ends_at: ${WINDOW_MESSAGE}`, pointer: '/attributes/access_period_ends_at' };
    }
    return values;
  }

  /** Publish batch (POST): PublishedCoursesService.publishMany; an existing live publication of the pair is `already_published`. */
  async publishMany(p: Principal, items: ValidItem<PublishedCourseCreateItemV2>[]): Promise<Map<number, ItemOutcome<PublishedCourseV2Row>>> {
    const out = new Map<number, ItemOutcome<PublishedCourseV2Row>>();
    const requests: { index: number; request: PublishRequest }[] = [];
    for (const v of items) {
      const values = this.settings(v.item.attributes);
      if ('ok' in values) {
        out.set(v.index, values as Failure);
        continue;
      }
      const rel = v.item.relationships;
      requests.push({
        index: v.index,
        request: {
          courseId: decodeId('course', rel.course.data.id),
          domainId: decodeId('domain', rel.domain.data.id),
          slug: v.item.attributes?.slug ?? undefined,
          values: { ...PUBLISH_DEFAULTS, ...values },
        },
      });
    }
    if (!requests.length) return out;
    const outcomes = await this.publications.publishMany(
      p.organizationId,
      requests.map((r) => r.request),
    );
    const created = await this.rows(
      p.organizationId,
      outcomes.flatMap((o) => (o.ok ? [o.id] : [])),
    );
    const byId = new Map(created.map((r) => [r.id, r]));
    requests.forEach(({ index }, i) => {
      const o = outcomes[i];
      if (o.ok) {
        const row = byId.get(o.id);
        if (row) out.set(index, { ok: true, id: publicIdsOf('publishedCourse', row.id).id, result: row });
        return;
      }
      const detail = PUBLISH_MESSAGES[o.reason];
      if (o.reason === 'course') out.set(index, { ok: false, code: 'not_found', detail, pointer: '/relationships/course/data/id' });
      else if (o.reason === 'domain') out.set(index, { ok: false, code: 'not_found', detail, pointer: '/relationships/domain/data/id' });
      else if (o.reason === 'already_published') out.set(index, { ok: false, code: 'already_published', detail, pointer: '/relationships/course/data/id' });
      else out.set(index, { ok: false, code: 'validation_error', detail: `slug: ${detail}`, pointer: '/attributes/slug' });
    });
    return out;
  }

  /** Update batch (PATCH): settings only (slug, course and domain are set when publishing); a repeated id: later values win, every item answers the final row. */
  updateMany(p: Principal, items: ValidItem<PublishedCourseUpdateItemV2>[]): Promise<Map<number, ItemOutcome<PublishedCourseV2Row>>> {
    const settings = (v: ValidItem<PublishedCourseUpdateItemV2>) => this.settings(v.item.attributes) as Record<string, unknown> | Failure;
    return updateLastWins(
      items,
      'publishedCourse',
      'Published course not found.',
      settings,
      async (merged) => {
        const updated = await this.publications.updateSettings(p.organizationId, merged);
        const rows = await this.rows(p.organizationId, [...updated]);
        return new Map(rows.map((r) => [r.id, r]));
      },
      (r) => publicIdsOf('publishedCourse', r.id).id,
    );
  }

  /** POST {id}/unpublish/: live=false, the slug freed (already unpublished: unchanged). */
  async unpublish(p: Principal, publicId: string): Promise<PublishedCourseV2Row> {
    const row = await this.get(p, publicId);
    await this.publications.setUnpublished(p.organizationId, row.id);
    return this.get(p, publicId);
  }

  /** POST {id}/publish/: live again, its slug or the first free one; 400 when the course is live on the domain through another publication. */
  async republish(p: Principal, publicId: string): Promise<PublishedCourseV2Row> {
    const row = await this.get(p, publicId);
    const r = await this.publications.republish(p.organizationId, row.id);
    if (!r.ok) throw new ApiError(400, PUBLISH_MESSAGES.already_published, { code: 'already_published' });
    return this.get(p, publicId);
  }

  /** DELETE: the /v1 delete (a soft unpublish): 204, the row stays readable with live=false. */
  async remove(p: Principal, publicId: string): Promise<void> {
    const row = await this.get(p, publicId);
    await this.publications.setUnpublished(p.organizationId, row.id);
  }
}
