import { randomBytes } from 'node:crypto';
import { encodeId, newUuid } from '../../src/core/ids/ids';
import type { CreatedOrg } from '../../src/modules/organizations/organizations.service';
import { RequestOptions, startTestApp, TestApp } from '../support/app';
import { countQueries, domainOf, insertPlan } from '../support/fixtures';
import { TwoOrgs, twoOrgs } from '../support/two-orgs';

/**
 * /v1 users (issue 10 item 1, resource-reference-api.md "users (global)", CONVENTIONS §10):
 * users_list, users_retrieve, users_update / users_partial_update, users_plan_enrollments_list,
 * users_published_path_enrollments_list. A /v1 user is the /v2 student (same row, same id), listed
 * and addressable when registered on at least one domain of the organization. Every fixture goes
 * through the API (plans excepted: no operation creates them).
 */
const rnd = () => randomBytes(4).toString('hex');

describe('/v1 users', () => {
  let t: TestApp;
  let w: TwoOrgs;
  let A: RequestOptions;
  let B: RequestOptions;
  let v2A: RequestOptions;

  beforeAll(async () => {
    t = await startTestApp({ DESTRUCTIVE_RATE_LIMIT: 1000, DESTRUCTIVE_ORG_RATE_LIMIT: 1000 } as any);
    w = await twoOrgs(t);
    A = w.A.v1;
    B = w.B.v1;
    v2A = w.A.v2;
  });
  afterAll(() => t?.close());

  const ok = <T = any>(res: { status: number; body: any; text: string }, status = 200): T => {
    if (res.status !== status) throw new Error(`expected ${status}, got ${res.status} ${res.text.slice(0, 400)}`);
    return res.body;
  };

  /** A user registered on the org's domain through /v1 domain users. */
  const learner = async (org: CreatedOrg = w.a, attrs: { email?: string; first_name?: string; last_name?: string } = {}) => {
    const email = attrs.email ?? `learner-${rnd()}@example.test`;
    const body = ok(
      await t.post(`/v1/domains/${org.domain_name}/users`, { user: { email, first_name: attrs.first_name ?? 'Ada', last_name: attrs.last_name ?? 'Lovelace' } }, { basic: org.api_key }),
      201,
    );
    return { id: body.user.id as string, email: email.toLowerCase() };
  };
  /** A /v2 student on no domain. */
  const student = async (attrs: { email?: string; first_name?: string; last_name?: string } = {}) => {
    const email = attrs.email ?? `student-${rnd()}@example.test`;
    const body = ok(await t.post('/v2/students/', { data: [{ type: 'students', attributes: { email, first_name: attrs.first_name ?? 'Stu', last_name: attrs.last_name ?? 'Dent' } }] }, v2A));
    return { id: body.data[0].id as string, email };
  };
  const publishedCourse = async (org: CreatedOrg = w.a) => {
    const auth = { basic: org.api_key };
    const course = ok(await t.post('/v1/courses', { title: `Course ${rnd()}`, short_description: 'S', enforce_sequential_navigation: false }, auth), 201);
    ok(await t.post('/v1/lessons', { course_id: course.id, order: 1, title: 'L1', type: 'HTML', content_html: '<p>x</p>' }, auth), 201);
    return ok(await t.post(`/v1/domains/${org.domain_name}/published-courses`, { course: { id: course.id } }, auth), 201).id as string;
  };
  const enroll = async (userId: string, pcId: string) => ok(await t.post(`/v1/domains/${w.a.domain_name}/published-courses/${pcId}/enrollments`, { user: { id: userId } }, A), 201);
  /** The course progress's completion through the progress operation (PATCH /v1/users/{id}/published-courses/{id}). */
  const complete = async (userId: string, pcId: string, at: string | null = new Date().toISOString()) =>
    ok(await t.patch(`/v1/users/${userId}/published-courses/${pcId}`, { course_progress: { completed_at: at } }, A));
  const overview = async (id: string) => ok(await t.get(`/v1/users/${id}`, A));
  const listAll = async (query = '') => ok(await t.get(`/v1/users?page_size=1000${query}`, A));
  const randomUserId = () => encodeId('student', newUuid());

  describe('users_list', () => {
    it('lists the users registered on a domain of the organization, oldest first, as UserOverview; not /v2 students on no domain, not other organizations', async () => {
      const first = await learner(w.a, { first_name: 'First', last_name: 'One' });
      const second = await learner(w.a, { first_name: 'Second', last_name: 'Two' });
      const loner = await student();
      const theirs = await learner(w.b);
      const body = await listAll();
      const ids = body.results.map((r: any) => r.user.id);
      expect(ids).toEqual(expect.arrayContaining([first.id, second.id]));
      expect(ids.indexOf(first.id)).toBeLessThan(ids.indexOf(second.id));
      expect(ids).not.toContain(loner.id);
      expect(ids).not.toContain(theirs.id);
      expect(body.count).toBe(ids.length);
      const item = body.results.find((r: any) => r.user.id === first.id);
      expect(item).toEqual({
        user: { id: first.id, email: first.email, first_name: 'First', last_name: 'One', full_name: 'First One' },
        registration_count: 0,
        completion_count: 0,
        signed_up_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T.*Z$/),
        inactive_at: null,
      });
      // the /v2 student registers on the domain (same email): now a /v1 user, with the same id
      ok(await t.post(`/v1/domains/${w.a.domain_name}/users`, { user: { email: loner.email } }, A), 201);
      expect((await listAll()).results.map((r: any) => r.user.id)).toContain(loner.id);
    });

    it('filters: email, first_name and last_name exact and case-sensitive; is_inactive; combined; an empty value filters nothing', async () => {
      const tag = rnd();
      const a = await learner(w.a, { email: `filter-a-${tag}@example.test`, first_name: `Fa${tag}`, last_name: `La${tag}` });
      const b = await learner(w.a, { email: `filter-b-${tag}@example.test`, first_name: `Fa${tag}`, last_name: `Lb${tag}` });
      const ids = async (q: string) => (await listAll(q)).results.map((r: any) => r.user.id).sort();
      expect(await ids(`&email=${encodeURIComponent(a.email)}`)).toEqual([a.id]);
      expect(await ids(`&email=${encodeURIComponent(a.email.toUpperCase())}`)).toEqual([]);
      expect(await ids(`&email=filter-a-${tag}`)).toEqual([]);
      expect(await ids(`&first_name=Fa${tag}`)).toEqual([a.id, b.id].sort());
      expect(await ids(`&first_name=fa${tag}`)).toEqual([]);
      expect(await ids(`&last_name=Lb${tag}`)).toEqual([b.id]);
      expect(await ids(`&last_name=LB${tag}`)).toEqual([]);
      expect(await ids(`&first_name=Fa${tag}&last_name=La${tag}`)).toEqual([a.id]);
      expect((await listAll(`&first_name=Fa${tag}`)).count).toBe(2);

      // deactivated through /v2: inactive on /v1, with inactive_at
      expect((await t.delete(`/v2/students/${b.id}`, v2A)).status).toBe(204);
      expect(await ids(`&first_name=Fa${tag}&is_inactive=true`)).toEqual([b.id]);
      expect(await ids(`&first_name=Fa${tag}&is_inactive=false`)).toEqual([a.id]);
      expect(await ids(`&first_name=Fa${tag}&is_inactive=1`)).toEqual([b.id]);
      const inactive = (await listAll(`&email=${encodeURIComponent(b.email)}`)).results[0];
      expect(inactive.inactive_at).toMatch(/Z$/);
      expect(await ids(`&first_name=Fa${tag}&is_inactive=&email=`)).toEqual([a.id, b.id].sort());
      const all = (await listAll()).count;
      expect((await listAll('&is_inactive=true')).count + (await listAll('&is_inactive=false')).count).toBe(all);
    });

    it('a bad is_inactive is 400 naming the parameter', async () => {
      const res = await t.get('/v1/users?is_inactive=maybe', A);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ is_inactive: [expect.any(String)] });
    });

    it('pages: page and page_size (capped at 1000), next/previous links, a page past the end is 404, a bad page is 400', async () => {
      const tag = rnd();
      for (let i = 0; i < 3; i++) await learner(w.a, { first_name: `Pg${tag}` });
      const p1 = ok(await t.get(`/v1/users?first_name=Pg${tag}&page_size=2`, A));
      expect(p1.count).toBe(3);
      expect(p1.results).toHaveLength(2);
      expect(p1.previous).toBeNull();
      expect(p1.next).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1\/users\?/);
      const next = new URL(p1.next);
      expect(next.searchParams.get('page')).toBe('2');
      const p2 = ok(await t.get(next.pathname + next.search, A));
      expect(p2.results).toHaveLength(1);
      expect(p2.next).toBeNull();
      expect(p2.previous).not.toBeNull();
      expect([...p1.results, ...p2.results].map((r: any) => r.user.id)).toHaveLength(new Set([...p1.results, ...p2.results].map((r: any) => r.user.id)).size);
      const past = await t.get(`/v1/users?first_name=Pg${tag}&page_size=2&page=3`, A);
      expect(past.status).toBe(404);
      expect(past.body).toEqual({ detail: 'Invalid page.' });
      expect((await t.get('/v1/users?page=0', A)).status).toBe(400);
      expect((await t.get('/v1/users?page_size=abc', A)).status).toBe(400);
      const capped = ok(await t.get(`/v1/users?first_name=Pg${tag}&page_size=5000`, A));
      expect(capped.results).toHaveLength(3);
      // nothing matches: an empty first page, not a 404
      expect(ok(await t.get(`/v1/users?first_name=nobody-${tag}`, A))).toEqual({ count: 0, next: null, previous: null, results: [] });
    });

    it('runs the same number of statements for a page of 1 and a page of many users with enrollments (no N+1)', async () => {
      const tag = rnd();
      const pc = await publishedCourse();
      for (let i = 0; i < 6; i++) {
        const u = await learner(w.a, { first_name: `Nq${tag}` });
        await enroll(u.id, pc);
      }
      const measure = async (url: string) => {
        await t.get(url, A);
        const { result, statements } = await countQueries(() => t.get(url, A));
        expect(result.status).toBe(200);
        return statements.filter((q) => !/\bFROM api_keys\b/.test(q)).length;
      };
      const one = await measure(`/v1/users?first_name=Nq${tag}&page_size=1`);
      const six = await measure(`/v1/users?first_name=Nq${tag}&page_size=6`);
      expect(one).toBe(six);
      expect(six).toBeLessThanOrEqual(2);
    });
  });

  describe('users_retrieve', () => {
    it('answers the UserOverview: course enrollments, completed ones, latest activity', async () => {
      const u = await learner(w.a, { first_name: 'Grace', last_name: 'Hopper' });
      const [pc1, pc2] = [await publishedCourse(), await publishedCourse()];
      await enroll(u.id, pc1);
      await enroll(u.id, pc2);
      let o = await overview(u.id);
      expect(o).toEqual({
        user: { id: u.id, email: u.email, first_name: 'Grace', last_name: 'Hopper', full_name: 'Grace Hopper' },
        registration_count: 2,
        completion_count: 0,
        signed_up_at: expect.any(String),
        inactive_at: null,
      });
      const before = Date.now();
      await complete(u.id, pc1);
      o = await overview(u.id);
      expect(o.registration_count).toBe(2);
      expect(o.completion_count).toBe(1);
      expect(Date.parse(o.latest_activity)).toBeGreaterThanOrEqual(before - 1000);
      // the list shows the same overview
      const listed = (await listAll(`&email=${encodeURIComponent(u.email)}`)).results;
      expect(listed).toEqual([o]);
      // removing the completion counts it out again
      await complete(u.id, pc1, null);
      expect((await overview(u.id)).completion_count).toBe(0);
    });

    it('404 {"detail"} alike for a malformed id, a random id, another organization\'s user and a student on no domain', async () => {
      const loner = await student();
      const theirs = await learner(w.b);
      const mine = await learner();
      for (const id of ['nope', 'stu', randomUserId(), theirs.id, loner.id, encodeId('course', newUuid())]) {
        const res = await t.get(`/v1/users/${id}`, A);
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ detail: 'Not found.' });
      }
      // and org B on org A's user
      const res = await t.get(`/v1/users/${mine.id}`, B);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ detail: 'Not found.' });
    });
  });

  describe('users_update / users_partial_update', () => {
    it('PUT and PATCH are both partial: only the members sent change; the answer is UserUpdate', async () => {
      const u = await learner(w.a, { first_name: 'Old', last_name: 'Name' });
      const put = ok(await t.request('PUT', `/v1/users/${u.id}`, { ...A, body: { first_name: 'New' } }));
      expect(put).toEqual({ id: u.id, email: u.email, first_name: 'New', last_name: 'Name', inactive_at: null });
      const patch = ok(await t.patch(`/v1/users/${u.id}`, { last_name: 'Surname' }, A));
      expect(patch).toEqual({ id: u.id, email: u.email, first_name: 'New', last_name: 'Surname', inactive_at: null });
      const email = `Renamed-${rnd()}@Example.test`;
      const changed = ok(await t.patch(`/v1/users/${u.id}`, { email: `  ${email} ` }, A));
      expect(changed.email).toBe(email.toLowerCase());
      expect((await overview(u.id)).user).toEqual({ id: u.id, email: email.toLowerCase(), first_name: 'New', last_name: 'Surname', full_name: 'New Surname' });
      // blank names are allowed; an empty body changes nothing
      expect(ok(await t.patch(`/v1/users/${u.id}`, { first_name: '' }, A)).first_name).toBe('');
      expect(ok(await t.request('PUT', `/v1/users/${u.id}`, { ...A, body: {} }))).toEqual({ id: u.id, email: email.toLowerCase(), first_name: '', last_name: 'Surname', inactive_at: null });
    });

    it('other members are ignored (id, full_name, is_inactive, inactive_at, external_id)', async () => {
      const u = await learner(w.a, { first_name: 'Keep' });
      const other = randomUserId();
      const res = ok(await t.patch(`/v1/users/${u.id}`, { id: other, full_name: 'X Y', is_inactive: true, inactive_at: '2020-01-01T00:00:00Z', external_id: 'ext', last_name: 'Only' }, A));
      expect(res).toEqual({ id: u.id, email: u.email, first_name: 'Keep', last_name: 'Only', inactive_at: null });
      const s = ok(await t.get(`/v2/students/${u.id}`, v2A)).data.attributes;
      expect(s.is_inactive).toBe(false);
      expect(s.external_id).not.toBe('ext');
    });

    it('bad bodies are 400 in the DRF shape and change nothing', async () => {
      const u = await learner(w.a, { first_name: 'Stable', last_name: 'Person' });
      const taken = await learner();
      const before = await overview(u.id);
      const cases: [unknown, Record<string, string[]>][] = [
        [{ email: 'not-an-email' }, { email: ['Enter a valid email address.'] }],
        [{ email: '' }, { email: ['This field may not be blank.'] }],
        [{ email: null }, { email: ['This field may not be null.'] }],
        [{ email: `${'x'.repeat(250)}@example.test` }, { email: ['Ensure this field has no more than 254 characters.', 'Enter a valid email address.'] }],
        [{ first_name: null }, { first_name: ['This field may not be null.'] }],
        [{ first_name: 'x'.repeat(51) }, { first_name: ['Ensure this field has no more than 50 characters.'] }],
        [{ last_name: 42 }, { last_name: ['Not a valid string.'] }],
        [{ last_name: 'a\u0000b' }, { last_name: [expect.any(String)] as any }],
        [{ email: taken.email.toUpperCase(), first_name: 'Changed' }, { email: ['A user with this email address already exists.'] }],
        [{ email: taken.email }, { email: ['A user with this email address already exists.'] }],
      ];
      for (const [body, errors] of cases) {
        for (const method of ['PUT', 'PATCH']) {
          const res = await t.request(method, `/v1/users/${u.id}`, { ...A, body });
          expect({ body, status: res.status }).toEqual({ body, status: 400 });
          expect(res.body).toEqual(errors);
        }
      }
      for (const raw of ['[1]', '"x"', '{bad json']) {
        const res = await t.request('PATCH', `/v1/users/${u.id}`, { ...A, raw: { contentType: 'application/json', data: raw } });
        expect(res.status).toBe(400);
      }
      expect(await overview(u.id)).toEqual(before);
    });

    it('an anonymized user cannot be edited (400, nothing changes)', async () => {
      const u = await learner();
      const anonymized = ok(await t.post(`/v1/users/${u.id}/anonymize`, undefined, A));
      for (const method of ['PUT', 'PATCH']) {
        const res = await t.request(method, `/v1/users/${u.id}`, { ...A, body: { first_name: 'Back', email: `back-${rnd()}@example.test` } });
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ non_field_errors: ['The user is anonymized and cannot be edited.'] });
      }
      expect(await overview(u.id)).toEqual(anonymized);
      expect(anonymized.user.first_name).toBe('');
    });

    it("bad ids are 404 and change nothing: malformed, random, another organization's user, a student on no domain", async () => {
      const loner = await student({ first_name: 'Lonely' });
      const mine = await learner(w.a, { first_name: 'Mine' });
      for (const method of ['PUT', 'PATCH']) {
        for (const id of ['nope', randomUserId(), loner.id]) {
          const res = await t.request(method, `/v1/users/${id}`, { ...A, body: { first_name: 'Hacked' } });
          expect(res.status).toBe(404);
          expect(res.body).toEqual({ detail: 'Not found.' });
        }
        const res = await t.request(method, `/v1/users/${mine.id}`, { ...B, body: { first_name: 'Hacked' } });
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ detail: 'Not found.' });
      }
      expect(ok(await t.get(`/v2/students/${loner.id}`, v2A)).data.attributes.first_name).toBe('Lonely');
      expect((await overview(mine.id)).user.first_name).toBe('Mine');
    });

    it('/v1 and /v2 agree on one learner: a change on either interface is the same row, same id', async () => {
      const u = await learner(w.a, { first_name: 'Both', last_name: 'Sides' });
      const email = `agreed-${rnd()}@example.test`;
      ok(await t.patch(`/v1/users/${u.id}`, { email, first_name: 'Vone' }, A));
      const s = ok(await t.get(`/v2/students/${u.id}`, v2A)).data;
      expect(s.id).toBe(u.id);
      expect(s.attributes).toMatchObject({ email, first_name: 'Vone', last_name: 'Sides', is_inactive: false });
      // the domain user shows it too
      expect(ok(await t.get(`/v1/domains/${w.a.domain_name}/users/${u.id}`, A)).user).toMatchObject({ email, first_name: 'Vone' });
      // /v2 changes: /v1 reads them
      ok(await t.patch('/v2/students/', { data: [{ type: 'students', id: u.id, attributes: { last_name: 'Vtwo' } }] }, v2A));
      expect((await overview(u.id)).user).toEqual({ id: u.id, email, first_name: 'Vone', last_name: 'Vtwo', full_name: 'Vone Vtwo' });
      expect((await t.delete(`/v2/students/${u.id}`, v2A)).status).toBe(204);
      const inactiveAt = (await overview(u.id)).inactive_at;
      expect(inactiveAt).toMatch(/Z$/);
      expect(ok(await t.patch(`/v1/users/${u.id}`, { first_name: 'Still' }, A)).inactive_at).toBe(inactiveAt);
      // the email /v1 took is taken for /v2 too
      const dup = ok(await t.post('/v2/students/', { data: [{ type: 'students', attributes: { email: email.toUpperCase() } }] }, v2A), 207);
      expect(dup.data[0].status).toBe('failed');
      // and the old email is free again
      const freed = ok(await t.post('/v2/students/', { data: [{ type: 'students', attributes: { email: u.email } }] }, v2A));
      expect(freed.data[0].status).toBe('succeeded');
    });
  });

  describe('scopes', () => {
    it('students:read for the reads, students:write for the writes', async () => {
      const u = await learner();
      const read = await t.tokenFor(w.a, ['students:read']);
      const write = await t.tokenFor(w.a, ['students:write']);
      const other = await t.tokenFor(w.a, ['enrollments:read', 'enrollments:write']);
      for (const path of ['/v1/users', `/v1/users/${u.id}`, `/v1/users/${u.id}/plan-enrollments`, `/v1/users/${u.id}/published-path-enrollments`]) {
        expect((await t.get(path, { token: read })).status).toBe(200);
        const denied = await t.get(path, { token: other });
        expect(denied.status).toBe(403);
        expect(denied.body).toEqual({ detail: expect.any(String) });
        expect((await t.get(path)).status).toBe(401);
      }
      expect((await t.patch(`/v1/users/${u.id}`, { first_name: 'R' }, { token: read })).status).toBe(403);
      expect((await t.request('PUT', `/v1/users/${u.id}`, { token: other, body: { first_name: 'R' } })).status).toBe(403);
      expect(ok(await t.patch(`/v1/users/${u.id}`, { first_name: 'W' }, { token: write })).first_name).toBe('W');
    });
  });

  describe('users_plan_enrollments_list', () => {
    it("lists the user's plan enrollments as UserPlanEnrollments", async () => {
      const u = await learner();
      const domain = await domainOf(t, w.a);
      const gold = await insertPlan(t, w.a, domain.uuid, { name: 'Gold' }); // through POST /v1/domains/{domain_name}/plan (the fixture)
      const silver = await insertPlan(t, w.a, domain.uuid, { name: 'Silver' });
      const base = `/v1/domains/${w.a.domain_name}/plan`;
      expect(ok(await t.get(`/v1/users/${u.id}/plan-enrollments`, A))).toEqual([]);
      const e1 = ok(await t.post(`${base}/${gold.id}/plan-enrollments`, { user: { id: u.id }, expires_at: '2031-01-01T00:00:00Z' }, A), 201);
      const e2 = ok(await t.post(`${base}/${silver.id}/plan-enrollments`, { user: { id: u.id }, active: false }, A), 201);
      const someoneElse = await learner();
      ok(await t.post(`${base}/${gold.id}/plan-enrollments`, { user: { id: someoneElse.id } }, A), 201);
      const body = ok(await t.get(`/v1/users/${u.id}/plan-enrollments`, A));
      // a bare JSON array, as published (CONVENTIONS §16, issue 25 item 1)
      expect(body).toEqual([
        {
          plan_id: gold.id,
          domain_name: w.a.domain_name,
          enrolled_at: e1.enrolled_at,
          expires_at: '2031-01-01T00:00:00.000Z',
          active: true,
          enrollment_id: e1.id,
          plan: { id: gold.id, title: 'Gold' },
        },
        { plan_id: silver.id, domain_name: w.a.domain_name, enrolled_at: e2.enrolled_at, active: false, enrollment_id: e2.id, plan: { id: silver.id, title: 'Silver' } },
      ]);
      // page and page_size choose a window; past the end, none
      const window = async (q: string) => ok(await t.get(`/v1/users/${u.id}/plan-enrollments?${q}`, A)).map((r: any) => r.enrollment_id);
      expect(await window('page_size=1&page=2')).toEqual([e2.id]);
      expect(await window('page_size=1')).toEqual([e1.id]);
      expect(await window('page_size=1&page=3')).toEqual([]);
      expect(await window('page_size=100000')).toEqual([e1.id, e2.id]);
      expect((await t.get(`/v1/users/${u.id}/plan-enrollments?page=x`, A)).body).toEqual({ page: ['A valid positive integer is required.'] });
    });

    it("404 for a bad id, another organization's user and a student on no domain", async () => {
      for (const id of ['nope', randomUserId(), (await learner(w.b)).id, (await student()).id]) {
        for (const sub of ['plan-enrollments', 'published-path-enrollments']) {
          const res = await t.get(`/v1/users/${id}/${sub}`, A);
          expect(res.status).toBe(404);
          expect(res.body).toEqual({ detail: 'Not found.' });
        }
      }
    });
  });

  describe('users_published_path_enrollments_list', () => {
    const publishPath = async (pcs: string[]) => {
      const base = `/v1/domains/${w.a.domain_name}/published-paths`;
      const pp = ok(await t.post(base, { slug: `path-${rnd()}`, path: { title: `Path ${rnd()}` } }, A), 201);
      for (const [i, pc] of pcs.entries()) ok(await t.post(`${base}/${pp.id}/path-items`, { order: i + 1, published_course: { id: pc } }, A), 201);
      return pp;
    };
    const enrollPath = async (userId: string, ppId: string) => ok(await t.post(`/v1/domains/${w.a.domain_name}/published-paths/${ppId}/published-path-enrollments`, { user: { id: userId } }, A), 201);

    it('lists the enrollments with the path progress: completed courses, completion, latest activity', async () => {
      const u = await learner();
      const [pc1, pc2] = [await publishedCourse(), await publishedCourse()];
      const pp = await publishPath([pc1, pc2]);
      await enroll(u.id, pc1);
      await enroll(u.id, pc2);
      const e = await enrollPath(u.id, pp.id);
      const list = async () => ok(await t.get(`/v1/users/${u.id}/published-path-enrollments`, A));
      let body = await list();
      expect(body).toEqual([
        {
          published_path_id: pp.id,
          domain_name: w.a.domain_name,
          enrolled_at: e.enrolled_at,
          active: true,
          enrollment_id: e.id,
          published_path: { id: pp.id, title: pp.path.title, course_count: 2 },
          published_path_progress: {
            path_progress_id: e.id,
            completed_course_count: 0,
            completed_required_course_count: 0,
            latest_activity: expect.any(String),
          },
        },
      ]);
      const start = body[0].published_path_progress.latest_activity;

      await complete(u.id, pc1);
      body = await list();
      expect(body[0].published_path_progress).toMatchObject({ completed_course_count: 1, completed_required_course_count: 1 });
      expect(body[0].published_path_progress).not.toHaveProperty('completed_at');
      expect(Date.parse(body[0].published_path_progress.latest_activity)).toBeGreaterThanOrEqual(Date.parse(start));

      // another user's completion counts nothing here
      const other = await learner();
      await enroll(other.id, pc2);
      await complete(other.id, pc2);
      expect((await list())[0].published_path_progress.completed_course_count).toBe(1);

      await complete(u.id, pc2);
      body = await list();
      const progress = body[0].published_path_progress;
      expect(progress).toMatchObject({ completed_course_count: 2, completed_required_course_count: 2 });
      expect(progress.completed_at).toMatch(/Z$/);
    });

    it('a path with no progress yet: counts 0, latest activity null', async () => {
      const u = await learner();
      const pc = await publishedCourse();
      const pp = await publishPath([pc]);
      const e = await enrollPath(u.id, pp.id);
      const [item] = ok(await t.get(`/v1/users/${u.id}/published-path-enrollments`, A));
      expect(item.published_path).toEqual({ id: pp.id, title: pp.path.title, course_count: 1 });
      expect(item.published_path_progress).toEqual({ path_progress_id: e.id, completed_course_count: 0, completed_required_course_count: 0 });
    });

    it('the sub-lists run the same number of statements for 1 row and for many (no N+1)', async () => {
      const measure = async (url: string) => {
        await t.get(url, A);
        const { result, statements } = await countQueries(() => t.get(url, A));
        expect(result.status).toBe(200);
        return statements.filter((q) => !/\bFROM api_keys\b/.test(q)).length;
      };
      const few = await learner();
      const many = await learner();
      const pcs = [await publishedCourse(), await publishedCourse(), await publishedCourse()];
      const domain = await domainOf(t, w.a);
      const plans = [await insertPlan(t, w.a, domain.uuid), await insertPlan(t, w.a, domain.uuid), await insertPlan(t, w.a, domain.uuid)];
      for (const pc of pcs) await enroll(many.id, pc);
      await enroll(few.id, pcs[0]);
      for (let i = 0; i < 4; i++) await enrollPath(many.id, (await publishPath(pcs)).id);
      await enrollPath(few.id, (await publishPath([pcs[0]])).id);
      for (const plan of plans) ok(await t.post(`/v1/domains/${w.a.domain_name}/plan/${plan.id}/plan-enrollments`, { user: { id: many.id } }, A), 201);
      ok(await t.post(`/v1/domains/${w.a.domain_name}/plan/${plans[0].id}/plan-enrollments`, { user: { id: few.id } }, A), 201);
      await complete(many.id, pcs[0]);
      for (const sub of ['plan-enrollments', 'published-path-enrollments']) {
        const one = await measure(`/v1/users/${few.id}/${sub}`);
        expect(await measure(`/v1/users/${many.id}/${sub}`)).toBe(one);
        expect(one).toBeLessThanOrEqual(2);
      }
    });
  });
});
