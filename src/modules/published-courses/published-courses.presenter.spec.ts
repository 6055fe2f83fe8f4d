import { declaredViolations } from '../../../test/support/declared-validator';
import type { OfferRow } from '../commerce/offers';
import { presentPublishedCourse, PublishedCourseDetailSchema, PublishedCourseSchema, type PublishedCourseRow } from './published-courses.presenter';

const row: PublishedCourseRow = {
  id: '0f0e2d3c-4b5a-4697-8877-665544332211',
  course_id: '11111111-2222-4333-8444-555555555555',
  slug: 'safety-first',
  course_title: 'Safety first',
  course_short_description: 'Short',
  course_long_description_html: '<p>Long</p>',
  is_hidden: false,
  strict_enforce_group_visibility: false,
  registration_required: false,
  registration_starts_at: null,
  registration_ends_at: new Date('2027-01-02T03:04:05Z'),
  restrict_access_start_end_dates: false,
  allow_self_service_reenroll: true,
  unique_progress_per_enrollment: false,
  require_all_prerequisites: true,
};
const stats = new Map([[row.course_id, { lessonCount: 3, requiredLessonCount: 2 }]]);
const searchable = new Map([[row.course_id, [{ id: '22222222-3333-4444-8555-666666666666', title: 'One', type: 'HTML', order: 0, search_keywords: 'alpha' }]]]);

describe('presentPublishedCourse', () => {
  it('answers what PublishedCourseSchema / PublishedCourseDetailSchema declare', () => {
    for (const o of [{}, { searchable, tags: new Map() }]) {
      expect(declaredViolations(PublishedCourseSchema, JSON.parse(JSON.stringify(presentPublishedCourse(row, { domainName: 'acme.example.com', stats, ...o }))))).toEqual([]);
      expect(declaredViolations(PublishedCourseDetailSchema, JSON.parse(JSON.stringify(presentPublishedCourse(row, { domainName: 'acme.example.com', stats, detail: true, ...o }))))).toEqual([]);
    }
  });

  it('leaves the offer out when the published course has none (optional, not nullable in the published PublishedCourse)', () => {
    const out = presentPublishedCourse(row, { domainName: 'acme.example.com', stats, offers: new Map<string, OfferRow>() });
    expect(out).not.toHaveProperty('offer');
    expect(out).not.toHaveProperty('registration_starts_at');
    expect(out.registration_ends_at).toBe('2027-01-02T03:04:05.000Z');
  });

  it('gives the course its descriptions on the read only', () => {
    expect(presentPublishedCourse(row, { domainName: 'acme.example.com', stats }).course).toEqual({ id: expect.any(String), title: 'Safety first', lesson_count: 3, required_lesson_count: 2 });
    expect(presentPublishedCourse(row, { domainName: 'acme.example.com', stats, detail: true }).course).toMatchObject({ short_description: 'Short', long_description_html: '<p>Long</p>' });
  });
});
