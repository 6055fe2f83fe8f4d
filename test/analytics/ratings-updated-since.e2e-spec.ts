import { startTestApp, TestApp } from '../support/app';
import { journey } from '../support/learner-journey';
import { v1SinceChecks, v2SinceChecks } from '../support/since-checks';

/**
 * `filter[updated_since]` on /v2/analytics/courses/{id}/ratings (docs/decisions/data-out.md, issue
 * 32 point 1): a rating is upserted, so `course_ratings.updated_at` (moved by a trigger on every real
 * change) is its last change; the ratings changed at or after the time, by last change across cursor
 * pages, 422 naming the parameter on a bad value, on course_ratings_course_updated_idx (EXPLAIN, no Seq Scan).
 */
jest.setTimeout(120_000);

describe('/v2/analytics/courses/{id}/ratings: filter[updated_since]', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('changed since, by last change; without it most recent first as before', async () => {
    const o = await t.newOrg();
    const token = await t.tokenFor(o);
    const key = { basic: o.api_key };
    const { ok, between, pause } = v1SinceChecks(t, key);
    const v2 = v2SinceChecks(t, token);
    const j = journey(t, o);
    const c = await j.course([{}]);
    const url = (e: string) => `/v1/domains/${o.domain_name}/published-courses/${c.publishedCourseId}/enrollments/${e}`;
    const enrollments: string[] = [];
    for (let i = 0; i < 3; i++) enrollments.push((await j.enroll((await j.learner()).id, c.publishedCourseId)).id);
    const ratingIds: string[] = [];
    for (const e of enrollments) {
      ok(await t.patch(url(e), { rating: 3 }, key));
      await pause(5);
    }
    const list = `/v2/analytics/courses/${c.courseId}/ratings/`;
    ratingIds.push(...(await v2.pages(list)).reverse()); // most recent first: reversed, the order of the enrollments
    const [r1, r2, r3] = ratingIds;
    const mid = await between();
    ok(await t.patch(url(enrollments[2]), { rating: 5 }, key));
    await pause(5);
    ok(await t.patch(url(enrollments[0]), { feedback: 'changed my mind' }, key));
    await pause(5);
    ok(await t.patch(url(enrollments[1]), { rating: 3 }, key)); // the same value: no change

    expect(await v2.pages(`${list}?filter[updated_since]=${mid}`)).toEqual([r3, r1]);
    expect(await v2.pages(`${list}?filter[updated_since]=2000-01-01T00:00:00Z`)).toEqual([r2, r3, r1]);
    expect(await v2.pages(list)).toEqual([r3, r2, r1]);
    await v2.refusesBadTime(list);
    await v2.servedBy(list, /FROM "course_ratings".*ORDER BY .*updated_at/s, 'course_ratings_course_updated_idx');
  });
});
