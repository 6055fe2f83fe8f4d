import type { CreatedOrg } from '../../src/modules/organizations/organizations.service';
import { startTestApp, TestApp } from '../support/app';
import { countQueries, insertCourse } from '../support/fixtures';

/**
 * A /v2 list filter never fails on a long value: it matches nothing (CONVENTIONS §16, issue 25
 * item 7). A value longer than anything the filtered column or id can hold is the ordinary empty
 * page (200, the list envelope with its links and meta), answered without the page statement; a
 * value of the wrong type is still 422 naming the parameter (CONVENTIONS §8).
 */
describe('/v2 list filters: a long value matches nothing, a wrong type is 422', () => {
  let t: TestApp;
  let org: CreatedOrg;
  let token: string;
  let groupId: string;
  let courseId: string;
  beforeAll(async () => {
    t = await startTestApp();
    org = await t.newOrg();
    token = await t.tokenFor(org);
    groupId = (await t.post('/v2/groups/', { data: [{ type: 'groups', attributes: { name: 'Long filters' } }] }, { token })).body.data[0].id;
    courseId = (await insertCourse(t, org)).id;
  });
  afterAll(() => t?.close());

  const long = (n: number) => 'x'.repeat(n);
  const lists = (): [string, string, number][] => [
    ['/v2/students/', 'filter[email]', 255],
    ['/v2/courses/', 'filter[title]', 501],
    ['/v2/lessons/', 'filter[title]', 501],
    ['/v2/lessons/', 'filter[course_id]', 1001],
    ['/v2/groups/', 'filter[category_id]', 65],
    [`/v2/groups/${groupId}/relationships/published-course-visibility/`, 'filter[published_course_id]', 65],
    ['/v2/enrollments/', 'filter[student.email]', 255],
    ['/v2/enrollments/', 'filter[student.id]', 1001],
    ['/v2/enrollments/', 'filter[course.id]', 1001],
    ['/v2/certificates/', 'filter[student.id]', 1001],
    ['/v2/certificates/', 'filter[course.id]', 1001],
    [`/v2/analytics/courses/${courseId}/ratings/`, 'filter[student.id]', 1001],
    ['/v2/published-courses/', 'filter[domain]', 65],
    ['/v2/published-courses/', 'filter[course]', 65],
    ['/v2/quizzes/', 'filter[name]', 501],
    ['/v2/question-banks/', 'filter[name]', 501],
    ['/v2/questions/', 'filter[quiz_id]', 1001],
    ['/v2/questions/', 'filter[question_bank_id]', 1001],
    ['/v2/domains/', 'filter[name]', 254],
    ['/v2/signup-field-values/', 'filter[student.id]', 65],
    ['/v2/signup-field-values/', 'filter[signup-field.id]', 65],
  ];

  it('every /v2 list answers an over-long text filter with the ordinary empty page', async () => {
    for (const [path, name, n] of lists()) {
      const url = `${path}?${encodeURIComponent(name)}=${long(n)}&page[size]=7`;
      const res = await t.get(url, { token });
      expect({ url: `${path} ${name}`, status: res.status, errors: res.body.errors }).toEqual({ url: `${path} ${name}`, status: 200, errors: undefined });
      expect(res.headers.get('content-type')).toMatch(/^application\/vnd\.api\+json/);
      expect(res.body).toEqual({
        data: [],
        links: { self: expect.stringContaining(path), next: null, prev: null },
        meta: { page_size: 7 },
        has_more: false,
        next_cursor: null,
      });
    }
  });

  it('the empty page runs no list statement', async () => {
    await t.get('/v2/students/', { token }); // the token is verified and cached
    const students = await countQueries(() => t.get(`/v2/students/?filter[email]=${long(300)}`, { token }));
    expect(students.result.status).toBe(200);
    expect(students.statements.filter((s) => /\bFROM\s+"?users\b/i.test(s))).toEqual([]);
    const courses = await countQueries(() => t.get(`/v2/courses/?filter[title]=${long(600)}`, { token }));
    expect(courses.result.status).toBe(200);
    expect(courses.statements.filter((s) => /\bFROM\s+"?courses\b/i.test(s))).toEqual([]);
  });

  it('a value of the wrong type is still 422 naming the parameter, a long text filter beside it too', async () => {
    const cases: [string, string][] = [
      ['/v2/students/?filter[is_inactive]=maybe', 'filter[is_inactive]'],
      ['/v2/students/?filter[email]=a@example.test&filter[email]=b@example.test', 'filter[email]'],
      [`/v2/students/?filter[email]=${long(300)}&filter[is_inactive]=maybe`, 'filter[is_inactive]'],
      ['/v2/groups/?filter[category_id]=a&filter[category_id]=b', 'filter[category_id]'],
      [`/v2/groups/${groupId}/relationships/published-course-visibility/?filter[is_visible]=yes&filter[published_course_id]=${long(70)}`, 'filter[is_visible]'],
      [`/v2/lessons/?filter[title]=${long(600)}&filter[updated_since]=yesterday`, 'filter[updated_since]'],
      [`/v2/lessons/?filter[course_id]=${long(2000)}&filter[type]=PDF`, 'filter[type]'],
      [`/v2/enrollments/?filter[student.id]=${long(2000)}&filter[active]=maybe`, 'filter[active]'],
      [`/v2/enrollments/?filter[student.email]=${long(300)}&filter[enrolled_gte]=2024-01-01`, 'filter[enrolled_gte]'],
      [`/v2/certificates/?filter[course.id]=${long(2000)}&filter[issued_gte]=not-a-date`, 'filter[issued_gte]'],
      [`/v2/published-courses/?filter[course]=${long(70)}&filter[live]=maybe`, 'filter[live]'],
      [`/v2/quizzes/?filter[name]=${long(600)}&filter[updated_since]=2020-01-01T00:00:00`, 'filter[updated_since]'],
      ['/v2/courses/?filter[title]=a&filter[title]=b', 'filter[title]'],
      [`/v2/courses/?filter[title]=${long(600)}&page[size]=0`, 'page[size]'],
    ];
    for (const [url, parameter] of cases) {
      const res = await t.get(url, { token });
      expect({ url, status: res.status, code: res.body.errors?.[0]?.code, parameter: res.body.errors?.[0]?.source?.parameter }).toEqual({ url, status: 422, code: 'validation_error', parameter });
    }
    expect((await t.get(`/v2/courses/?filter[title]=${long(600)}&page[cursor]=tampered`, { token })).status).toBe(400);
    expect((await t.get(`/v2/analytics/courses/crs-nope/ratings/?filter[student.id]=${long(2000)}`, { token })).status).toBe(404);
  });
});
