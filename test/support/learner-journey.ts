import type { CreatedOrg } from '../../src/modules/organizations/organizations.service';
import type { RequestOptions, TestApp } from './app';

let seq = 0;
const uniq = () => `${Date.now().toString(36)}${(seq++).toString(36)}`;

/** What a course built through the API is made of (public ids). */
export interface BuiltCourse {
  courseId: string;
  publishedCourseId: string;
  lessonIds: string[];
}

function ok<T = any>(res: { status: number; body: any }, what: string): T {
  if (res.status !== 200 && res.status !== 201) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as T;
}

/**
 * Learner-journey fixtures made through the /v1 API only (no SQL): a course with lessons published
 * on the organization's domain, a domain user, an enrollment, a published path.
 */
const V1_LESSON_TYPES = ['ASSET', 'HTML', 'WEB_PACKAGE', 'QUIZ', 'VILT', 'MODULAR', 'SECTION'];

export function journey(t: TestApp, org: CreatedOrg, auth: RequestOptions = { basic: org.api_key }) {
  const domain = org.domain_name;
  let v2: Promise<string> | null = null;
  const v2Token = () => (v2 ??= t.tokenFor(org));
  return {
    async course(
      lessons: { type?: string; optional?: boolean; title?: string }[] = [{}, {}],
      opts: { title?: string; published?: Record<string, unknown>; course?: Record<string, unknown> } = {},
    ): Promise<BuiltCourse> {
      const course = ok(
        await t.post('/v1/courses', { title: opts.title ?? `Course ${uniq()}`, short_description: 'S', enforce_sequential_navigation: false, ...(opts.course ?? {}) }, auth),
        'create course',
      );
      const lessonIds: string[] = [];
      for (const [i, l] of lessons.entries()) {
        const body = { course_id: course.id, order: i + 1, title: l.title ?? `Lesson ${i + 1}`, type: l.type ?? 'HTML', optional: l.optional ?? false };
        if (V1_LESSON_TYPES.includes(body.type)) {
          lessonIds.push(ok(await t.post('/v1/lessons', body, auth), 'create lesson').id);
        } else {
          // types only /v2 creates (e.g. IE_EXAM)
          const res = ok(
            await t.post('/v2/lessons/', { data: [{ type: 'lessons', attributes: { ...body, order: (i + 1) * 10, content_html: 'x' } }] }, { token: await v2Token() }),
            'create lesson (v2)',
          );
          lessonIds.push(res.data[0].result.id);
        }
      }
      const pc = ok(await t.post(`/v1/domains/${domain}/published-courses`, { course: { id: course.id }, slug: `c-${uniq()}`, ...(opts.published ?? {}) }, auth), 'publish course');
      return { courseId: course.id, publishedCourseId: pc.id, lessonIds };
    },
    async learner(email = `learner-${uniq()}@example.test`): Promise<{ id: string; email: string }> {
      const du = ok(await t.post(`/v1/domains/${domain}/users`, { user: { email, first_name: 'Ada', last_name: 'Lovelace' } }, auth), 'create domain user');
      return { id: du.user.id, email };
    },
    async enroll(userId: string, publishedCourseId: string, body: Record<string, unknown> = {}): Promise<{ id: string }> {
      return ok(await t.post(`/v1/domains/${domain}/published-courses/${publishedCourseId}/enrollments`, { user: { id: userId }, ...body }, auth), 'enroll');
    },
    async path(publishedCourseIds: string[]): Promise<{ id: string }> {
      const pp = ok(await t.post(`/v1/domains/${domain}/published-paths`, { slug: `p-${uniq()}`, path: { title: `Path ${uniq()}` } }, auth), 'publish path');
      for (const [i, id] of publishedCourseIds.entries()) {
        ok(await t.post(`/v1/domains/${domain}/published-paths/${pp.id}/path-items`, { order: i + 1, published_course: { id } }, auth), 'path item');
      }
      return pp;
    },
    async enrollPath(userId: string, publishedPathId: string): Promise<{ id: string }> {
      return ok(await t.post(`/v1/domains/${domain}/published-paths/${publishedPathId}/published-path-enrollments`, { user: { id: userId } }, auth), 'enroll path');
    },
    /** the learner's lessons of a course with progress (their lesson_progress_id) */
    async lessons(userId: string, publishedCourseId: string): Promise<any[]> {
      return ok(await t.get(`/v1/users/${userId}/published-courses/${publishedCourseId}/lessons`, auth), 'user lessons').results;
    },
  };
}
