import type { TimeFormat } from './dto/course.v1.dto';

/**
 * The course time shown on the course tile: the manual text when `display_manual_course_time`,
 * else the sum of the lessons' `time_seconds` in the chosen format. Minutes round to the nearest
 * minute in the formats without seconds (5567 s: 01:32:47, 01:33, 1 hr 33 min, 93 min).
 */
export function formatCourseTime(totalSeconds: number, format: string): string {
  const s = Math.max(0, Math.floor(totalSeconds));
  const pad = (n: number) => String(n).padStart(2, '0');
  switch (format as TimeFormat) {
    case 'HOURS_MINUTES_SECONDS':
      return `${pad(Math.floor(s / 3600))}:${pad(Math.floor((s % 3600) / 60))}:${pad(s % 60)}`;
    case 'HOURS_MINUTES_VERBOSE': {
      const m = Math.round(s / 60);
      const h = Math.floor(m / 60);
      return h > 0 ? `${h} hr ${m % 60} min` : `${m} min`;
    }
    case 'MINUTES_VERBOSE':
      return `${Math.round(s / 60)} min`;
    case 'HOURS_MINUTES':
    default: {
      const m = Math.round(s / 60);
      return `${pad(Math.floor(m / 60))}:${pad(m % 60)}`;
    }
  }
}

export function courseTime(c: { displayManualCourseTime: boolean; manualCourseTime: string; courseAndLessonTimeFormat: string }, totalSeconds: number): string {
  if (c.displayManualCourseTime) return c.manualCourseTime;
  return formatCourseTime(totalSeconds, c.courseAndLessonTimeFormat);
}
