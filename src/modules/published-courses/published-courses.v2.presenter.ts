import { encodeId } from '../../core/ids/ids';
import { externalIdOf } from '../courses/external-id';
import { publicIdsOf, trimBase } from '../courses/public-ids';

/** One row of the /v2 published-course reads (published_courses columns). */
export interface PublishedCourseV2Row {
  id: string;
  course_id: string;
  domain_id: string;
  slug: string;
  external_id: string;
  is_hidden: boolean;
  visible_on_catalog: boolean;
  open_access: boolean;
  strict_enforce_group_visibility: boolean;
  visibility_override_type: string;
  registration_starts_at: Date | null;
  registration_ends_at: Date | null;
  restrict_access_start_end_dates: boolean;
  allow_self_service_reenroll: boolean;
  unique_progress_per_enrollment: boolean;
  require_all_prerequisites: boolean;
  unpublished_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

/**
 * PublishedCourseResource. `live` is "not unpublished"; the access window is the registration
 * window /v1 shows (one pair of columns); a visibility mode never set (NONE, /v1 rows) is GROUP, the
 * published default (docs/decisions/v2-rest.md). One literal, members in the order v2Resource
 * answers them (type, id, attributes, relationships, links); the dates as pg answers them (Dates).
 */
export function presentPublishedCourseV2(r: PublishedCourseV2Row, baseUrl: string) {
  const id = encodeId('publishedCourse', r.id);
  return {
    type: 'published-courses' as const,
    id,
    attributes: {
      external_id: externalIdOf('publishedCourse', r.id, r.external_id),
      slug: r.slug,
      live: r.unpublished_at === null,
      is_hidden: r.is_hidden,
      visible_on_catalog: r.visible_on_catalog,
      open_access: r.open_access,
      strict_enforce_group_visibility: r.strict_enforce_group_visibility,
      visibility_override_type: r.visibility_override_type === 'CATEGORY' ? 'CATEGORY' : 'GROUP',
      access_period_starts_at: r.registration_starts_at ? r.registration_starts_at.toISOString() : null,
      access_period_ends_at: r.registration_ends_at ? r.registration_ends_at.toISOString() : null,
      restrict_access_start_end_dates: r.restrict_access_start_end_dates,
      allow_self_service_reenroll: r.allow_self_service_reenroll,
      unique_progress_per_enrollment: r.unique_progress_per_enrollment,
      require_all_prerequisites: r.require_all_prerequisites,
      created_at: r.created_at.toISOString(),
      modified_at: r.updated_at.toISOString(),
    },
    relationships: {
      course: { data: { type: 'courses', id: publicIdsOf('course', r.course_id).id } },
      domain: { data: { type: 'domains', id: encodeId('domain', r.domain_id) } },
    },
    links: { self: `${trimBase(baseUrl)}/v2/published-courses/${id}` },
  };
}

export type PublishedCourseResource = ReturnType<typeof presentPublishedCourseV2>;
