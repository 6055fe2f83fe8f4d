import { parseTimestamptz } from '../../core/database/pool-reads';
import { pageDocument, pageDocumentJson } from '../../core/pagination/cursor-page';
import { declaredViolations } from '../../../test/support/declared-validator';
import { presentPublishedCourseV2, publishedCourseRowJson, publishedCourseV2Json, publishedCourseRowPosition, PublishedCourseV2Row, PublishedCourseV2Schema } from './published-courses.v2.presenter';

const row = (over: Partial<PublishedCourseV2Row> = {}): PublishedCourseV2Row => ({
  id: '0f0e2d3c-4b5a-4697-8877-665544332211',
  course_id: '11111111-2222-4333-8444-555555555555',
  domain_id: '99999999-8888-4777-a666-555555555555',
  slug: 'intro-"to"\\safety\u2028',
  external_id: '',
  is_hidden: false,
  visible_on_catalog: true,
  open_access: false,
  strict_enforce_group_visibility: true,
  visibility_override_type: 'NONE',
  registration_starts_at: null,
  registration_ends_at: null,
  restrict_access_start_end_dates: false,
  allow_self_service_reenroll: true,
  unique_progress_per_enrollment: false,
  require_all_prerequisites: true,
  unpublished_at: null,
  created_at: '2026-11-24 20:05:45.123456+00',
  updated_at: '2026-11-24 20:05:45+00',
  ...over,
});

/** The same row with every timestamp text parsed to a Date, as pg's default parser answers it. */
const parsed = (r: PublishedCourseV2Row): PublishedCourseV2Row => {
  const d = (t: Date | string | null) => (typeof t === 'string' ? parseTimestamptz(t) : t);
  return {
    ...r,
    registration_starts_at: d(r.registration_starts_at),
    registration_ends_at: d(r.registration_ends_at),
    unpublished_at: d(r.unpublished_at),
    created_at: d(r.created_at)!,
    updated_at: d(r.updated_at)!,
  };
};

describe('publishedCourseRowJson / publishedCourseRowPosition', () => {
  const rows = [
    row(),
    row({
      external_id: 'abc-stored',
      visibility_override_type: 'CATEGORY',
      unpublished_at: '2026-01-01 00:00:00.5+00',
      registration_starts_at: '2027-01-01 10:00:00.12+00',
      registration_ends_at: '2027-02-01 10:00:00.123456+05',
    }),
    row({ id: '22222222-3333-4444-8555-666666666666', visibility_override_type: 'GROUP', registration_starts_at: '0999-01-01 00:00:00+00', created_at: '2026-11-24 20:05:45.1+00' }),
  ];

  it('writes JSON.stringify(presentPublishedCourseV2(row)) for text and Date timestamps, any base', () => {
    for (const base of ['http://api.test', 'http://api.test/', 'https://x.test/pre"fix/']) {
      for (const r of rows) {
        const expected = JSON.stringify(presentPublishedCourseV2(parsed(r), base));
        expect(publishedCourseRowJson(r, base)).toBe(expected);
        // the hand writer is the declaration's compiled serializer, byte for byte
        expect(publishedCourseRowJson(r, base)).toBe(publishedCourseV2Json(presentPublishedCourseV2(r, base)));
        expect(publishedCourseRowJson(parsed(r), base)).toBe(expected);
        expect(JSON.stringify(presentPublishedCourseV2(r, base))).toBe(expected);
      }
    }
  });

  it("writes what PublishedCourseV2Schema declares, nothing else (ajv over the hand writer's text)", () => {
    for (const r of rows) for (const t of [r, parsed(r)]) expect(declaredViolations(PublishedCourseV2Schema, JSON.parse(publishedCourseRowJson(t, 'http://api.test')))).toEqual([]);
  });

  it('a page of rows: the same document text as pageDocument of the presented rows', () => {
    const page = { size: 2, scope: 'published-courses' };
    const keyed = rows.map((r) => ({ ...parsed(r), createdAt: parsed(r).created_at as Date }));
    const expected = JSON.stringify(pageDocument(keyed, page, (r) => presentPublishedCourseV2(r, 'http://a.test'), 'http://a.test', '/v2/published-courses/?page[size]=2', 's'));
    expect(pageDocumentJson(rows, page, (r) => publishedCourseRowJson(r, 'http://a.test'), publishedCourseRowPosition, 'http://a.test', '/v2/published-courses/?page[size]=2', 's')).toBe(expected);
  });
});
