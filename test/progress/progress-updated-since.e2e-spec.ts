import { startTestApp, TestApp } from '../support/app';
import { journey } from '../support/learner-journey';
import { countQueries, planOf } from '../support/fixtures';
import { checkV1UpdatedSince, pause } from '../support/updated-since';

/**
 * `updated_since` on the progress lists (docs/decisions/data-out.md, issue 32 point 1): /v1
 * progress tokens (the organization's lesson progress) and a learner's lessons of a published
 * course (/v1/users/{id}/published-courses/{pc}/lessons): the lesson progress changed since, by last
 * change across pages, 400 on a bad time, on their (…, updated_at, id) index.
 */
jest.setTimeout(120_000);

describe('progress lists: updated_since', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  const done = (r: { status: number; text: string }) => expect({ status: r.status, text: r.status === 200 ? '' : r.text }).toEqual({ status: 200, text: '' });

  /** A learner enrolled in a course of three lessons, with the lesson progress ids of its lessons (in course order). */
  async function learnerOnCourse(o: Parameters<typeof journey>[1]) {
    const j = journey(t, o);
    const c = await j.course([{}, {}, {}]);
    const learner = await j.learner();
    await j.enroll(learner.id, c.publishedCourseId);
    const lessons = await j.lessons(learner.id, c.publishedCourseId);
    return { c, learner, progressIds: lessons.map((l: any) => l.lesson_progress.lesson_progress_id as string) };
  }

  it('/v1/progresstokens', async () => {
    const o = await t.newOrg();
    const auth = { basic: o.api_key };
    const { progressIds } = await learnerOnCourse(o);
    const tokens: string[] = [];
    for (const id of progressIds) {
      const r = await t.get(`/v1/lesson-progress/${id}`, auth);
      expect(r.status).toBe(200);
      tokens.push(r.body.progress_token_id);
    }
    await checkV1UpdatedSince(t, {
      url: '/v1/progresstokens',
      auth,
      made: tokens as [string, string, string],
      change: async (token) => done(await t.patch(`/v1/progresstokens/${token}`, { score: 50, max_score: 100 }, auth)),
      statement: /FROM lesson_progress\s+WHERE organization_id = \$\d+ AND updated_at >= .*ORDER BY updated_at/s,
      index: 'lesson_progress_org_updated_idx',
    });
  });

  it('/v1/users/{id}/published-courses/{pc}/lessons', async () => {
    const o = await t.newOrg();
    const auth = { basic: o.api_key };
    const { c, learner, progressIds } = await learnerOnCourse(o);
    // another learner's progress on the same course: the list reads one course progress's rows
    await learnerOnCourse(o);
    const url = `/v1/users/${learner.id}/published-courses/${c.publishedCourseId}/lessons`;
    await checkV1UpdatedSince(t, {
      url,
      auth,
      made: progressIds as [string, string, string],
      change: async (id) => done(await t.patch(`/v1/lesson-progress/${id}`, { custom_data: `changed ${id}` }, auth)),
      idOf: (r) => r.lesson_progress.lesson_progress_id,
      statement: /FROM lesson_progress lp JOIN lessons l .*ORDER BY lp\.updated_at/s,
      index: 'lesson_progress_cp_updated_idx',
      analyze: 'lesson_progress',
    });
    // without it: course order, as before
    const all = await t.get(url, auth);
    expect(all.body.results.map((r: any) => r.lesson_progress.lesson_progress_id)).toEqual(progressIds);
    // declared in the OpenAPI document
    const op = (await t.get('/openapi.json')).body.paths['/v1/users/{user_id}/published-courses/{published_course_id}/lessons'].get;
    expect(op.parameters.filter((x: any) => x.name === 'updated_since' && x.in === 'query')).toHaveLength(1);
  });

  it('/v1/users/{id}/published-courses: the courses whose enrollment or course progress changed since, by last change', async () => {
    const o = await t.newOrg();
    const auth = { basic: o.api_key };
    const j = journey(t, o);
    const learner = await j.learner();
    const courses: string[] = [];
    const enrollments: string[] = [];
    for (let i = 0; i < 3; i++) {
      const c = await j.course([{}]);
      courses.push(c.publishedCourseId);
      enrollments.push((await j.enroll(learner.id, c.publishedCourseId)).id);
    }
    // another learner's changes are not this learner's
    const other = await j.learner();
    await j.enroll(other.id, courses[1]);
    const url = `/v1/users/${learner.id}/published-courses`;
    const ids = async (query: string) => {
      const r = await t.get(`${url}?${query}`, auth);
      expect({ query, status: r.status }).toEqual({ query, status: 200 });
      return r.body.map((x: any) => x.published_course_id ?? x.id);
    };
    const [a, b, z] = courses;
    expect(await ids('')).toEqual([a, b, z]);
    await pause(5);
    const mid = new Date().toISOString();
    await pause(5);
    // the third course's progress, then the first's enrollment
    done(await t.patch(`${url}/${z}`, { course_progress: { score: 50, max_score: 100 } }, auth));
    await pause(5);
    done(await t.patch(`/v1/domains/${o.domain_name}/published-courses/${a}/enrollments/${enrollments[0]}`, { active: false }, auth));
    await pause(5);
    done(await t.patch(`/v1/users/${other.id}/published-courses/${b}`, { course_progress: { score: 10, max_score: 100 } }, auth));
    const enc = encodeURIComponent(mid);
    expect(await ids(`updated_since=${enc}`)).toEqual([z, a]);
    // windows of one, from long ago: b (unchanged since made), z, a
    const pages: string[] = [];
    for (let page = 1; page <= 4; page++) pages.push(...(await ids(`updated_since=2000-01-01T00:00:00Z&page_size=1&page=${page}`)));
    expect(pages).toEqual([b, z, a]);
    expect(await ids('updated_since=2999-01-01T00:00:00Z')).toEqual([]);
    // without it: enrollment order, as before
    expect(await ids('')).toEqual([a, b, z]);
    const bad = await t.get(`${url}?updated_since=2026-01-01T00:00:00`, auth);
    expect({ status: bad.status, body: Object.keys(bad.body) }).toEqual({ status: 400, body: ['updated_since'] });
    expect((await t.get(`/v1/users/nothing/published-courses?updated_since=2000-01-01T00:00:00Z`, auth)).status).toBe(404);
    const op = (await t.get('/openapi.json')).body.paths['/v1/users/{user_id}/published-courses'].get;
    expect(op.parameters.filter((x: any) => x.name === 'updated_since' && x.in === 'query')).toHaveLength(1);
    // the changed courses are found on the learner's (organization_id, user_id, updated_at) indexes
    const run = await countQueries(() => t.get(`${url}?updated_since=2000-01-01T00:00:00Z`, auth));
    const plan = await planOf(t, run, /FROM enrollments e WHERE e\.organization_id = \$\d+ AND e\.user_id = \$1 AND e\.updated_at >= \$2.*LIMIT/s);
    expect(plan).toContain('enrollments_org_user_updated_idx');
    expect(plan).toContain('course_progress_org_user_updated_idx');
    expect(plan).not.toContain('Seq Scan');
  });
});
