import { isoJson, isoOf, type Timestamp } from '../../core/database/pool-reads';
import type { CursorPosition } from '../../core/pagination/cursor-page';
import { publicIdsOf, selfLinkJsonPrefix, trimBase } from '../../core/ids/public-ids';

export type { Timestamp };
// the row type moved to the store (issue 27); re-exported for the importers of this path
export type { PublishedCourseV2Row } from './published-courses.store';
import type { PublishedCourseV2Row } from './published-courses.store';

/**
 * PublishedCourseResource. `live` is "not unpublished"; the access window is the registration
 * window /v1 shows (one pair of columns); a visibility mode never set (NONE, /v1 rows) is GROUP, the
 * published default (docs/decisions/v2-rest.md). One literal, members in the order v2Resource
 * answers them (type, id, attributes, relationships, links); the dates as pg answers them (Dates or
 * text). The public ids and derived external id are computed once per uuid (publicIdsOf).
 */
export function presentPublishedCourseV2(r: PublishedCourseV2Row, baseUrl: string) {
  const ids = publicIdsOf('publishedCourse', r.id);
  const id = ids.id;
  return {
    type: 'published-courses' as const,
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

export type PublishedCourseResource = ReturnType<typeof presentPublishedCourseV2>;

/**
 * `JSON.stringify(presentPublishedCourseV2(r, baseUrl))` written directly (the same bytes: same
 * members in the same order, strings through JSON.stringify, booleans (true / false as text) and ISO dates as JSON
 * writes them), without the resource object: the list presents 100 of these per request.
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
