import { encodeId } from '../ids/ids';

/** The learner-facing URL of a published path (as the path reads show it). */
export const pathUrl = (domainName: string, slug: string) => `https://${domainName}/path/${slug}`;

/**
 * The one place event bodies are built (CONVENTIONS §6 and §10; ../shared/reference/
 * webhook-event-samples.md): every event type names its objects with these, so a member is
 * spelled and shaped the same on every event. recordEvents (outbox.ts) adds what every event
 * carries about the user on the domain (`domain_access_code`, `signup_fields`) and `purchase`.
 */
export interface UserCols {
  id: string;
  email: string;
  first_name: string;
  last_name: string;
}
export const eventUser = (u: UserCols) => ({ id: encodeId('student', u.id), email: u.email, first_name: u.first_name, last_name: u.last_name });

export const courseUrl = (domainName: string, slug: string) => `https://${domainName}/${slug}`;

export const eventCourse = (c: { course_id: string; published_course_id: string; title: string; domain_name: string; slug: string }) => ({
  id: encodeId('course', c.course_id),
  published_course_id: encodeId('publishedCourse', c.published_course_id),
  title: c.title,
  url: courseUrl(c.domain_name, c.slug),
});

export const eventDomain = (d: { id: string; name: string }) => ({ id: encodeId('domain', d.id), name: d.name });

export const eventLesson = (l: { id: string; title: string }) => ({ id: encodeId('lesson', l.id), title: l.title });

export const eventPath = (p: { path_id: string; published_path_id: string; title: string; domain_name: string; slug: string }) => ({
  id: encodeId('path', p.path_id),
  published_path_id: encodeId('publishedPath', p.published_path_id),
  title: p.title,
  url: pathUrl(p.domain_name, p.slug),
});

/** When and where a scheduled VILT event takes place (ISO times), as event bodies and the training mails' snapshots carry it. */
export const eventSchedule = (e: { starts_at: Date | string; ends_at: Date | string; timezone: string; location: string | null; event_link: string | null }) => ({
  starts_at: new Date(e.starts_at).toISOString(),
  ends_at: new Date(e.ends_at).toISOString(),
  timezone: e.timezone,
  location: e.location,
  event_link: e.event_link,
});

/** The session of VILT_EVENT_REGISTRATION (modules/training): the members of the published ViltSession and its scheduled events. */
export const eventViltSession = (s: {
  id: string;
  display_name: string;
  seats_total: number | null;
  registration_count: number;
  instructor_name: string;
  events: { id: string; display_name: string; starts_at: Date | string; ends_at: Date | string; timezone: string; location: string | null; event_link: string | null; provider: string }[];
}) => ({
  id: encodeId('viltSession', s.id),
  display_name: s.display_name,
  instructor_name: s.instructor_name,
  seats_total: s.seats_total,
  registration_count: s.registration_count,
  events: s.events.map((e) => ({
    id: encodeId('viltSessionEvent', e.id),
    display_name: e.display_name,
    ...eventSchedule(e),
    provider: e.provider,
  })),
});

/** `success_status` of a completion event: PASSED, FAILED or null (unknown). */
export const eventSuccessStatus = (s: string | null | undefined): 'PASSED' | 'FAILED' | null => (s === 'PASSED' || s === 'FAILED' ? s : null);

/** The quiz of QUIZ_COMPLETION (modules/quizzes). */
export const eventQuiz = (q: { id: string; name: string }) => ({ id: encodeId('quiz', q.id), name: q.name });
