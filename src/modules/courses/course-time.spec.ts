import { courseTime, formatCourseTime } from './course-time';

describe('formatCourseTime', () => {
  it('formats the published examples (5567 s)', () => {
    expect(formatCourseTime(5567, 'HOURS_MINUTES_SECONDS')).toBe('01:32:47');
    expect(formatCourseTime(5567, 'HOURS_MINUTES')).toBe('01:33');
    expect(formatCourseTime(5567, 'HOURS_MINUTES_VERBOSE')).toBe('1 hr 33 min');
    expect(formatCourseTime(5567, 'MINUTES_VERBOSE')).toBe('93 min');
  });
  it('handles zero, under an hour and rounding up to the hour', () => {
    expect(formatCourseTime(0, 'HOURS_MINUTES_SECONDS')).toBe('00:00:00');
    expect(formatCourseTime(0, 'HOURS_MINUTES')).toBe('00:00');
    expect(formatCourseTime(600, 'HOURS_MINUTES_VERBOSE')).toBe('10 min');
    expect(formatCourseTime(3599, 'HOURS_MINUTES')).toBe('01:00');
    expect(formatCourseTime(3599, 'HOURS_MINUTES_VERBOSE')).toBe('1 hr 0 min');
  });
  it('shows the manual text when display_manual_course_time', () => {
    const c = { displayManualCourseTime: true, manualCourseTime: 'About 2h', courseAndLessonTimeFormat: 'HOURS_MINUTES' };
    expect(courseTime(c, 5567)).toBe('About 2h');
    expect(courseTime({ ...c, displayManualCourseTime: false }, 5567)).toBe('01:33');
  });
});
