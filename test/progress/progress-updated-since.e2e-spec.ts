import { startTestApp, TestApp } from '../support/app';
import { journey } from '../support/learner-journey';
import { checkV1UpdatedSince } from '../support/updated-since';

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
});
