import { randomBytes } from 'node:crypto';
import { decodeId } from '../../src/core/ids/ids';
import { DomainsService } from '../../src/modules/domains/domains.service';
import type { CreatedOrg } from '../../src/modules/organizations/organizations.service';
import type { HttpResponse, RequestOptions, TestApp } from '../support/app';

/**
 * Fixtures of the /v2 enrollment tests, made through the API only: courses with lessons published
 * on a domain, domain users (members of the domain), students who are not, enrollments by the
 * /v2 bulk-enroll, progress through the /v1 user progress operations.
 */
const rnd = () => randomBytes(4).toString('hex');

function ok<T = any>(res: HttpResponse, what: string): T {
  if (res.status !== 200 && res.status !== 201) throw new Error(`${what}: ${res.status} ${res.text.slice(0, 400)}`);
  return res.body as T;
}

export interface Course {
  courseId: string;
  publishedCourseId: string;
  lessonIds: string[];
  domain: string;
}

export function fixtures(t: TestApp, org: CreatedOrg, token: string) {
  const key: RequestOptions = { basic: org.api_key };
  const v2: RequestOptions = { token };
  return {
    key,
    v2,
    /** a second domain of the organization (no route creates domains: the service the CLI uses) */
    async domain(): Promise<string> {
      const name = `d-${rnd()}.example.test`;
      await t.app.get(DomainsService).create(decodeId('organization', org.organization_id)!, name);
      return name;
    },
    async course(opts: { lessons?: { type?: string; optional?: boolean }[]; domain?: string; published?: Record<string, unknown>; title?: string } = {}): Promise<Course> {
      const domain = opts.domain ?? org.domain_name;
      const course = ok(await t.post('/v1/courses', { title: opts.title ?? `Course ${rnd()}`, short_description: 'S', enforce_sequential_navigation: false }, key), 'create course');
      const lessonIds: string[] = [];
      for (const [i, l] of (opts.lessons ?? [{}]).entries()) {
        const body = { course_id: course.id, order: i + 1, title: `Lesson ${i + 1}`, type: l.type ?? 'HTML', optional: l.optional ?? false, content_html: '<p>x</p>' };
        lessonIds.push(ok(await t.post('/v1/lessons', body, key), 'create lesson').id);
      }
      const pc = ok(await t.post(`/v1/domains/${domain}/published-courses`, { course: { id: course.id }, slug: `c-${rnd()}`, ...(opts.published ?? {}) }, key), 'publish');
      return { courseId: course.id, publishedCourseId: pc.id, lessonIds, domain };
    },
    /** a user who is a member of the domain (the org's own by default) */
    async member(domain = org.domain_name, email = `m-${rnd()}@example.test`): Promise<{ id: string; email: string }> {
      const du = ok(await t.post(`/v1/domains/${domain}/users`, { user: { email, first_name: 'Ada', last_name: 'Lovelace' } }, key), 'domain user');
      return { id: du.user.id, email };
    },
    /** a student of the organization on no domain */
    async student(email = `s-${rnd()}@example.test`): Promise<{ id: string; email: string }> {
      const res = ok(await t.post('/v2/students/', { data: [{ type: 'students', attributes: { email, first_name: 'Sam', last_name: 'Stu' } }] }, v2), 'student');
      return { id: res.data[0].id, email };
    },
    bulk(publishedCourseId: string, emails: string[], extra: Record<string, unknown> = {}, auth: RequestOptions = v2) {
      return t.post('/v2/enrollments/', { published_course_id: publishedCourseId, ...extra, data: emails.map((email) => ({ type: 'enrollments', attributes: { email } })) }, auth);
    },
    async enroll(publishedCourseId: string, email: string, extra: Record<string, unknown> = {}): Promise<string> {
      const res = await this.bulk(publishedCourseId, [email], extra);
      if (res.status !== 200) throw new Error(`enroll: ${res.status} ${res.text.slice(0, 400)}`);
      return res.body.data[0].id;
    },
    /** a lesson progress update through /v1 (finished_at completes a lesson that needs no validation) */
    async lesson(userId: string, publishedCourseId: string, lessonId: string, lessonProgress: Record<string, unknown>) {
      return ok(await t.patch(`/v1/users/${userId}/published-courses/${publishedCourseId}/lessons/${lessonId}`, { lesson_progress: lessonProgress }, key), 'lesson progress');
    },
    complete(items: { id: string; completed_at: string | null }[], sendNotifications = false, auth: RequestOptions = v2) {
      return t.patch(
        '/v2/enrollments/completion',
        { send_notifications: sendNotifications, data: items.map((i) => ({ type: 'enrollments', id: i.id, attributes: { completed_at: i.completed_at } })) },
        auth,
      );
    },
    events(type: string, orgUuid: string) {
      return t.ds.query(`SELECT payload FROM outbox_events WHERE organization_id = $1 AND event_type = $2 ORDER BY created_at, id`, [orgUuid, type]);
    },
  };
}
