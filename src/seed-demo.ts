import { AddressInfo } from 'node:net';
import { createApp } from './app.factory';
import { AppConfig } from './core/config/config';
import { migrate } from './core/database/database';
import { generatePassword } from './modules/organizations/admins.service';
import { OrganizationsService } from './modules/organizations/organizations.service';

/**
 * `cli seed-demo` (CONVENTIONS §23): a demo organization to try every interface on. The
 * organization (and its administrator) is made by OrganizationsService, as create-org makes one;
 * everything in it is then made the way a client would make it: through the API's own routes
 * (its services, validation and events), on an in-process API listening on 127.0.0.1 only while
 * the command runs, with the organization's own API key. Nothing is written with SQL.
 *
 * What a step could not make is listed in `not_made` with the API's answer: the output never
 * claims more than what exists.
 */
export interface DemoResult {
  organization_id: string;
  client_id: string;
  client_secret: string;
  api_key: string;
  domain_name: string;
  admin_email: string;
  admin_password: string;
  scopes: string[];
  made: Record<string, number>;
  not_made: string[];
}

const LESSON_TYPES = ['HTML', 'QUIZ', 'VILT', 'SECTION', 'MODULAR', 'ASSET', 'WEB_PACKAGE'];

export async function seedDemo(config: AppConfig, opts: { name?: string } = {}): Promise<DemoResult> {
  await migrate(config);
  const app = await createApp(config);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;
  const suffix = Date.now().toString(36);
  const adminEmail = `admin-${suffix}@demo.example`;
  const adminPassword = generatePassword();
  try {
    const org = await app.get(OrganizationsService).create({ name: opts.name ?? `Demo Academy ${suffix}`, adminEmail, adminPassword });
    const auth = `Basic ${Buffer.from(`${org.api_key}:`).toString('base64')}`;
    const made: Record<string, number> = {};
    const notMade: string[] = [];
    const count = (what: string) => (made[what] = (made[what] ?? 0) + 1);
    let token: string | null = null;
    const call = async (method: string, path: string, body?: unknown, bearer = false): Promise<any> => {
      if (bearer && !token) {
        const r = await fetch(`${base}/v2/auth/token`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ client_id: org.client_id, client_secret: org.client_secret }),
        });
        token = ((await r.json()) as { access_token: string }).access_token;
      }
      const res = await fetch(base + path, {
        method,
        headers: { authorization: bearer ? `Bearer ${token}` : auth, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      const parsed = text ? JSON.parse(text) : null;
      if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 300)}`);
      return parsed;
    };
    /** One step: made and counted, or listed in not_made with the API's answer. */
    const step = async <T>(what: string, fn: () => Promise<T>): Promise<T | null> => {
      try {
        const out = await fn();
        count(what);
        return out;
      } catch (err) {
        notMade.push(`${what}: ${(err as Error).message}`);
        return null;
      }
    };
    const domain = org.domain_name;

    // courses with lessons of every kind, published on the organization's domain
    const published: string[] = [];
    let viltLesson: string | null = null;
    const titles = ['Getting started with the platform', 'Writing great lessons', 'Selling courses online'];
    for (const [ci, title] of titles.entries()) {
      const course = await step('courses', () => call('POST', '/v1/courses', { title, short_description: `A demo course: ${title.toLowerCase()}.`, enforce_sequential_navigation: false }));
      if (!course) continue;
      const types = ci === 0 ? LESSON_TYPES : ['HTML', 'HTML', 'QUIZ'];
      for (const [li, type] of types.entries()) {
        const lesson = await step(`lessons (${type})`, () =>
          call('POST', '/v1/lessons', { course_id: course.id, order: li + 1, title: `${type === 'HTML' ? 'Reading' : type} ${li + 1}`, type, optional: false }),
        );
        if (type === 'VILT' && lesson) viltLesson ??= lesson.id;
      }
      const pc = await step('published courses', () => call('POST', `/v1/domains/${domain}/published-courses`, { course: { id: course.id }, slug: `demo-${ci + 1}-${suffix}` }));
      if (pc) published.push(pc.id);
    }

    // a priced offer (the last course is for sale)
    if (published.length) {
      const last = published[published.length - 1];
      await step('priced offers', async () => {
        const pc = await call('GET', `/v1/domains/${domain}/published-courses/${last}`);
        return call('PATCH', `/v1/offers/${pc.offer.id}`, { price_cents: 4900 });
      });
    }

    // a live session of the live-session lesson, with its instructor
    if (viltLesson) {
      const lessonId = viltLesson;
      await step('instructors', () => call('POST', '/v1/ilt-instructors', { email: `instructor-${suffix}@demo.example` }));
      const start = new Date(Date.now() + 7 * 86400_000);
      start.setUTCHours(9, 0, 0, 0);
      await step('live sessions', () =>
        call('POST', '/v1/ilt-sessions', {
          instructor_email: `instructor-${suffix}@demo.example`,
          lesson: lessonId,
          display_name: 'Live kick-off',
          starts_at: start.toISOString(),
          ends_at: new Date(start.getTime() + 90 * 60_000).toISOString(),
          timezone: 'Europe/Berlin',
        }),
      );
    }

    // learners, enrollments, progress
    const learners: string[] = [];
    for (const [i, [first, last]] of [
      ['Ada', 'Lovelace'],
      ['Alan', 'Turing'],
      ['Grace', 'Hopper'],
      ['Edsger', 'Dijkstra'],
    ].entries()) {
      const du = await step('students', () => call('POST', `/v1/domains/${domain}/users`, { user: { email: `${first.toLowerCase()}-${suffix}@demo.example`, first_name: first, last_name: last } }));
      if (!du) continue;
      learners.push(du.user.id);
      for (const pc of published.slice(0, i === 0 ? published.length : 1)) {
        const e = await step('enrollments', () => call('POST', `/v1/domains/${domain}/published-courses/${pc}/enrollments`, { user: { id: du.user.id } }));
        if (!e || i > 1) continue;
        // the first lessons finished: progress to see
        const lessons = await call('GET', `/v1/users/${du.user.id}/published-courses/${pc}/lessons`).catch((err: Error) => (notMade.push(`lesson progress: ${err.message}`), null));
        const firstLesson = lessons?.results?.[0];
        const progressId = firstLesson?.lesson_progress?.lesson_progress_id ?? firstLesson?.lesson_progress_id;
        if (progressId)
          await step('lesson progress', () => call('PATCH', `/v1/lesson-progress/${progressId}`, { finished_at: new Date().toISOString(), score: 9, max_score: 10, success_status: 'PASSED' }));
        else notMade.push('lesson progress: the learner lesson list named no lesson_progress_id');
      }
    }

    // a path of the published courses, with a learner on it
    if (published.length) {
      const path = await step('published paths', async () => {
        const pp = await call('POST', `/v1/domains/${domain}/published-paths`, { slug: `demo-path-${suffix}`, path: { title: 'From first lesson to first sale' } });
        for (const [i, id] of published.entries()) await call('POST', `/v1/domains/${domain}/published-paths/${pp.id}/path-items`, { order: i + 1, published_course: { id } });
        return pp;
      });
      if (path && learners[0]) await step('path enrollments', () => call('POST', `/v1/domains/${domain}/published-paths/${path.id}/published-path-enrollments`, { user: { id: learners[0] } }));
    }

    // a group with members, on /v1 and seen on /v2
    const group = await step('groups', () => call('POST', '/v1/groups', { name: 'Demo cohort' }));
    if (group) for (const id of learners.slice(0, 3)) await step('group members', () => call('POST', `/v1/groups/${group.id}/users`, { user: { id } }));

    // a webhook to nowhere, inactive (its events stay recorded, none is sent)
    const hook = await step('webhooks (inactive)', () => call('POST', '/v1/webhooks', { target_url: 'https://webhooks.invalid/demo', events: ['COURSE_ENROLLMENT'] }));
    if (hook) await step('webhooks deactivated', () => call('PATCH', `/v1/webhooks/${hook.id}`, { active: false }));

    return {
      organization_id: org.organization_id,
      client_id: org.client_id,
      client_secret: org.client_secret,
      api_key: org.api_key,
      domain_name: domain,
      admin_email: adminEmail,
      admin_password: adminPassword,
      scopes: org.scopes,
      made,
      not_made: notMade,
    };
  } finally {
    await app.close();
  }
}
