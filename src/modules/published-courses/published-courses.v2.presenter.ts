import { Type, type Static } from '@sinclair/typebox';
import { compileSerializer, DateTime, declaredV2, nullable, PublicId, StringEnum, ToOne } from '../../core/openapi/declared-shape';
import { isoJson, isoOf, type Timestamp } from '../../core/database/pool-reads';
import type { CursorPosition } from '../../core/pagination/cursor-page';
import { publicIdsOf, selfLinkJsonPrefix, trimBase } from '../../core/ids/public-ids';

export type { Timestamp };
// the row type moved to the store (issue 27); re-exported for the importers of this path
export type { PublishedCourseV2Row } from './published-courses.store';
import type { PublishedCourseV2Row } from './published-courses.store';

/** PublishedCourseResource of the published /v2 document, declared once (core/openapi/declared-shape.ts). */
export const PublishedCourseV2Schema = declaredV2(
  'PublishedCourseResource',
  Type.Object({
    type: Type.Literal('published-courses'),
    id: PublicId(),
    attributes: Type.Object({
      external_id: Type.String(),
      slug: Type.String(),
      live: Type.Boolean(),
      is_hidden: Type.Boolean(),
      visible_on_catalog: Type.Boolean(),
      open_access: Type.Boolean(),
      strict_enforce_group_visibility: Type.Boolean(),
      visibility_override_type: StringEnum(['GROUP', 'CATEGORY']),
      access_period_starts_at: nullable(DateTime()),
      access_period_ends_at: nullable(DateTime()),
      restrict_access_start_end_dates: Type.Boolean(),
      allow_self_service_reenroll: Type.Boolean(),
      unique_progress_per_enrollment: Type.Boolean(),
      require_all_prerequisites: Type.Boolean(),
      created_at: DateTime(),
      modified_at: DateTime(),
    }),
    relationships: Type.Object({ course: ToOne('courses'), domain: ToOne('domains') }),
    links: Type.Object({ self: Type.String({ format: 'uri' }) }),
  }),
);
export type PublishedCourseResource = Static<typeof PublishedCourseV2Schema>;

/** The JSON text of a published course resource (compiled from PublishedCourseV2Schema): the list writes 100 per request. */
export const publishedCourseV2Json = compileSerializer(PublishedCourseV2Schema);

/**
 * PublishedCourseResource from its row. `live` is "not unpublished"; the access window is the
 * registration window /v1 shows (one pair of columns); a visibility mode never set (NONE, /v1 rows)
 * is GROUP, the published default (docs/decisions/v2-rest.md). The dates as pg answers them (Dates
 * or text). The public ids and derived external id are computed once per uuid (publicIdsOf).
 */
export function presentPublishedCourseV2(r: PublishedCourseV2Row, baseUrl: string): PublishedCourseResource {
  const ids = publicIdsOf('publishedCourse', r.id);
  const id = ids.id;
  return {
    type: 'published-courses',
    id,
    attributes: {
      external_id: r.external_id ? r.external_id : ids.derivedExternalId,
      slug: r.slug,
      live: r.unpublished_at === null,
      is_hidden: r.is_hidden,
      visible_on_catalog: r.visible_on_catalog,
      open_access: r.open_access,
      strict_enforce_group_visibility: r.strict_enforce_group_visibility,
      visibility_override_type: r.visibility_override_type === 'CATEGORY' ? 'CATEGORY' : 'GROUP',
      access_period_starts_at: r.registration_starts_at ? isoOf(r.registration_starts_at) : null,
      access_period_ends_at: r.registration_ends_at ? isoOf(r.registration_ends_at) : null,
      restrict_access_start_end_dates: r.restrict_access_start_end_dates,
      allow_self_service_reenroll: r.allow_self_service_reenroll,
      unique_progress_per_enrollment: r.unique_progress_per_enrollment,
      require_all_prerequisites: r.require_all_prerequisites,
      created_at: isoOf(r.created_at),
      modified_at: isoOf(r.updated_at),
    },
    relationships: {
      course: { data: { type: 'courses', id: publicIdsOf('course', r.course_id).id } },
      domain: { data: { type: 'domains', id: publicIdsOf('domain', r.domain_id).id } },
    },
    links: { self: `${trimBase(baseUrl)}/v2/published-courses/${id}` },
  };
}

/**
 * `JSON.stringify(presentPublishedCourseV2(r, baseUrl))` written directly (the same bytes: same
 * members in the same order, strings through JSON.stringify, booleans (true / false as text) and ISO dates as JSON
 * writes them), without the resource object: the list presents 100 of these per request. Kept by hand: the
 * compiled serializer cost 20-25 % more server CPU per list request (docs/performance.md,
 * "Serialization from the declaration"); the presenter spec checks it against the declared presenter.
 */
export function publishedCourseRowJson(r: PublishedCourseV2Row, baseUrl: string): string {
  const ids = publicIdsOf('publishedCourse', r.id);
  return (
    '{"type":"published-courses","id":"' +
    ids.id +
    '","attributes":{"external_id":' +
    JSON.stringify(r.external_id ? r.external_id : ids.derivedExternalId) +
    ',"slug":' +
    JSON.stringify(r.slug) +
    ',"live":' +
    (r.unpublished_at === null) +
    ',"is_hidden":' +
    r.is_hidden +
    ',"visible_on_catalog":' +
    r.visible_on_catalog +
    ',"open_access":' +
    r.open_access +
    ',"strict_enforce_group_visibility":' +
    r.strict_enforce_group_visibility +
    ',"visibility_override_type":' +
    (r.visibility_override_type === 'CATEGORY' ? '"CATEGORY"' : '"GROUP"') +
    ',"access_period_starts_at":' +
    isoJson(r.registration_starts_at) +
    ',"access_period_ends_at":' +
    isoJson(r.registration_ends_at) +
    ',"restrict_access_start_end_dates":' +
    r.restrict_access_start_end_dates +
    ',"allow_self_service_reenroll":' +
    r.allow_self_service_reenroll +
    ',"unique_progress_per_enrollment":' +
    r.unique_progress_per_enrollment +
    ',"require_all_prerequisites":' +
    r.require_all_prerequisites +
    ',"created_at":"' +
    isoOf(r.created_at) +
    '","modified_at":"' +
    isoOf(r.updated_at) +
    '"},"relationships":{"course":{"data":{"type":"courses","id":"' +
    publicIdsOf('course', r.course_id).id +
    '"}},"domain":{"data":{"type":"domains","id":"' +
    publicIdsOf('domain', r.domain_id).id +
    '"}}},"links":{"self":' +
    selfLinkJsonPrefix(baseUrl, 'published-courses') +
    ids.id +
    '"}}'
  );
}

/** A list row's keyset position (the cursor of the page it ends): created_at as toISOString writes it. */
export function publishedCourseRowPosition(r: PublishedCourseV2Row): CursorPosition {
  return { t: isoOf(r.created_at), id: r.id };
}

/** The cursor position of a row of the list ordered by last change (filter[updated_since]). */
export function publishedCourseRowChange(r: PublishedCourseV2Row): CursorPosition {
  return { t: isoOf(r.updated_at), id: r.id };
}
