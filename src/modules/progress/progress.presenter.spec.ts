import { parseTimestamptz } from '../../core/database/pool-reads';
import { declaredViolations } from '../../../test/support/declared-validator';
import { presentProgressToken, presentUserCourse, userCourseJson, UserCourseSchema } from './progress.presenter';
import type { UserCourseListRow, UserCourseRow } from './progress-reads';

const row = (over: Partial<UserCourseListRow> = {}): UserCourseListRow => ({
  published_course_id: '0f0e2d3c-4b5a-4697-8877-665544332211',
  domain_name: 'acme.example.com',
  course_id: '11111111-2222-4333-8444-555555555555',
  title: 'Safety "first"\\ \u2028 ü <&>',
  enrollment_id: '22222222-3333-4444-8555-666666666666',
  enrolled_at: '2026-11-24 20:05:45.123456+00',
  cp_id: '33333333-4444-4555-8666-777777777777',
  completed_at: null,
  latest_activity: null,
  credits_earned: '',
  credit_unit_plural: '',
  score: null,
  max_score: null,
  success_status: null,
  lesson_count: 3,
  required_lesson_count: 2,
  completed_lesson_count: 0,
  completed_required_lesson_count: 0,
  cert_code: null,
  cert_issued_at: null,
  cert_expires_at: null,
  all_enrollments: [{ enrollment_id: '22222222-3333-4444-8555-666666666666', active: true, expires_at: null, course_progress_id: '33333333-4444-4555-8666-777777777777' }],
  ...over,
});

/** The same row with every timestamp text parsed to a Date, as pg's default parser answers it (the single read's row). */
const parsed = (r: UserCourseListRow): UserCourseRow => {
  const d = (t: string | null) => (t === null ? null : parseTimestamptz(t));
  return { ...r, enrolled_at: d(r.enrolled_at)!, completed_at: d(r.completed_at), latest_activity: d(r.latest_activity), cert_issued_at: d(r.cert_issued_at), cert_expires_at: d(r.cert_expires_at) };
};

describe('userCourseJson', () => {
  const rows = [
    row(),
    row({
      enrolled_at: '2025-01-02 03:04:05+00',
      completed_at: '2026-03-04 05:06:07.1+00',
      latest_activity: '1969-07-20 20:17:40.99999+00',
      credits_earned: '1.5',
      credit_unit_plural: 'hours "x"',
      score: 7,
      max_score: 10,
      success_status: 'PASSED',
      completed_lesson_count: 3,
      completed_required_lesson_count: 2,
      cert_code: 'ABCDEFGH23456789',
      cert_issued_at: '2026-03-04 05:06:07.123+00',
      cert_expires_at: '2027-03-04 05:06:07.12+05:30',
      all_enrollments: [
        { enrollment_id: '44444444-3333-4444-8555-666666666666', active: false, expires_at: '2027-12-29T22:32:44.446923+00:00', course_progress_id: '55555555-4444-4555-8666-777777777777' },
        { enrollment_id: '22222222-3333-4444-8555-666666666666', active: true, expires_at: '2027-12-29T22:32:44+02:00', course_progress_id: '33333333-4444-4555-8666-777777777777' },
      ],
    }),
    row({ all_enrollments: null as unknown as UserCourseListRow['all_enrollments'], enrolled_at: '0999-01-01 00:00:00+00', score: 12 }),
  ];

  it('writes JSON.stringify(presentUserCourse(row)) of the row with Date timestamps', () => {
    for (const r of rows) expect(userCourseJson(r)).toBe(JSON.stringify(presentUserCourse(parsed(r))));
  });

  it('writes what UserCourseSchema declares, nothing else', () => {
    for (const r of rows) expect(declaredViolations(UserCourseSchema, JSON.parse(userCourseJson(r)))).toEqual([]);
  });

  it('leaves the certificate out without one (optional, not nullable in the published UserPublishedCourseProgress)', () => {
    const json = JSON.parse(userCourseJson(rows[0]));
    expect('certificate' in json).toBe(false);
    expect(presentUserCourse(parsed(rows[0]))).not.toHaveProperty('certificate');
    expect(JSON.parse(userCourseJson(rows[1])).certificate).toEqual({
      code: 'ABCDEFGH23456789',
      validate_url: 'https://acme.example.com/certificates/ABCDEFGH23456789',
      issued_at: '2026-03-04T05:06:07.123Z',
      expires_at: '2027-03-03T23:36:07.120Z',
    });
  });
});

describe('presentProgressToken', () => {
  it('leaves success_status out until one is set', () => {
    const r = { progress_token: '33333333-4444-4555-8666-777777777777', completed_at: null, success_status: null, score: null, max_score: null };
    expect(presentProgressToken(r)).not.toHaveProperty('success_status');
    expect(presentProgressToken({ ...r, success_status: 'PASSED' }).success_status).toBe('PASSED');
  });
});
