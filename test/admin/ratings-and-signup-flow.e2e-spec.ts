import { randomBytes } from 'node:crypto';
import type { CreatedOrg } from '../../src/modules/organizations/organizations.service';
import { startTestApp, TestApp } from '../support/app';
import { orgUuid } from '../support/fixtures';

/** A learner's rating written on the enrollment (CONVENTIONS §15), and the signup-field flow end to end (issue 15 item 4). */
describe('ratings on the enrollment, and the signup-field flow', () => {
  let t: TestApp;
  let org: CreatedOrg;
  let other: CreatedOrg;
  let token: string;
  let dn: string;
  const rnd = () => randomBytes(3).toString('hex');
  const basic = (o: CreatedOrg = org) => ({ basic: o.api_key });

  beforeAll(async () => {
    t = await startTestApp();
    org = await t.newOrg();
    other = await t.newOrg();
    token = await t.tokenFor(org);
    dn = org.domain_name;
  });
  afterAll(() => t.close());

  /** a published course of `o`'s domain and `n` learners enrolled in it (all through the API) */
  const world = async (n = 1, o: CreatedOrg = org) => {
    const d = o.domain_name;
    const c = await t.post('/v1/courses', { title: `Rated ${rnd()}`, short_description: 'S', enforce_sequential_navigation: false }, basic(o));
    const pc = await t.post(`/v1/domains/${d}/published-courses`, { course: { id: c.body.id } }, basic(o));
    const enrollments: { id: string; userId: string; url: string }[] = [];
    for (let i = 0; i < n; i++) {
      const u = await t.post(`/v1/domains/${d}/users`, { user: { email: `r-${rnd()}@example.test`, first_name: 'R', last_name: 'L' } }, basic(o));
      const e = await t.post(`/v1/domains/${d}/published-courses/${pc.body.id}/enrollments`, { user: { id: u.body.user.id } }, basic(o));
      expect(e.status).toBe(201);
      enrollments.push({ id: e.body.id, userId: u.body.user.id, url: `/v1/domains/${d}/published-courses/${pc.body.id}/enrollments/${e.body.id}` });
    }
    return { courseId: c.body.id as string, pcId: pc.body.id as string, enrollments };
  };
  const ratings = async (courseId: string) => (await t.get(`/v2/analytics/courses/${courseId}/ratings/`, { token })).body;

  describe('rating and feedback on the published-course enrollment', () => {
    it('PATCH writes them, the enrollment reads them, the course ratings list them; one rating per enrollment', async () => {
      const w = await world(2);
      const [e1, e2] = w.enrollments;
      const r = await t.patch(e1.url, { rating: 4, feedback: 'Clear and short' }, basic());
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ id: e1.id, rating: 4, feedback: 'Clear and short', active: true });
      expect((await t.get(e1.url, basic())).body).toMatchObject({ rating: 4, feedback: 'Clear and short' });
      let list = await ratings(w.courseId);
      expect(list.data).toEqual([
        {
          type: 'course-ratings',
          id: expect.stringMatching(/^rat/),
          attributes: { rating: 4, scale_max: 5, feedback: 'Clear and short', created_at: expect.any(String) },
          relationships: { student: { data: { type: 'students', id: e1.userId } }, course: { data: { type: 'courses', id: w.courseId } } },
        },
      ]);
      const ratingId = list.data[0].id;
      // a new rating replaces the enrollment's rating (same rating object); feedback alone changes only the feedback
      expect((await t.patch(e1.url, { rating: 2 }, basic())).body).toMatchObject({ rating: 2, feedback: 'Clear and short' });
      expect((await t.request('PUT', e1.url, { body: { feedback: 'Too short' }, ...basic() })).body).toMatchObject({ rating: 2, feedback: 'Too short' });
      expect((await t.patch(e1.url, { feedback: null }, basic())).body).toMatchObject({ rating: 2, feedback: null });
      list = await ratings(w.courseId);
      expect(list.data.map((x: any) => [x.id, x.attributes.rating])).toEqual([[ratingId, 2]]);
      // the other enrollment's rating is its own
      await t.patch(e2.url, { rating: 5, feedback: 'Great', active: false }, basic());
      expect((await t.get(e2.url, basic())).body).toMatchObject({ rating: 5, feedback: 'Great', active: false });
      expect((await ratings(w.courseId)).data.map((x: any) => x.attributes.rating).sort()).toEqual([2, 5]);
      const analytics = await t.get(`/v2/analytics/courses/${w.courseId}/`, { token });
      expect(analytics.body.data.attributes).toMatchObject({ average_rating: 3.5, rating_count: 2, rating_scale: 5 });
      // rating: null removes the rating with its feedback
      expect((await t.patch(e2.url, { rating: null }, basic())).body).toMatchObject({ rating: null, feedback: null });
      expect((await ratings(w.courseId)).data).toHaveLength(1);
      // the published enrollment members otherwise unchanged
      expect((await t.patch(e1.url, {}, basic())).body).toMatchObject({ rating: 2, feedback: null });
    });

    it("bad input is a 400 naming the member and changes nothing (the organization's scale decides)", async () => {
      const w = await world(1);
      const [e] = w.enrollments;
      await t.patch(e.url, { rating: 3, feedback: 'ok' }, basic());
      const cases: [unknown, string][] = [
        [{ rating: 0 }, 'rating'],
        [{ rating: 6 }, 'rating'],
        [{ rating: 3.5 }, 'rating'],
        [{ rating: '4' }, 'rating'],
        [{ rating: 4, feedback: 7 }, 'feedback'],
        [{ rating: 4, feedback: 'x'.repeat(10001) }, 'feedback'],
        [{ rating: null, feedback: 'why' }, 'feedback'],
        [{ rating: 4, active: 'no' }, 'active'],
        [{ rating: 4, expires_at: 'soon' }, 'expires_at'],
      ];
      for (const [body, field] of cases) {
        const r = await t.patch(e.url, body, basic());
        expect([JSON.stringify(body).slice(0, 60), r.status, Object.keys(r.body)]).toEqual([JSON.stringify(body).slice(0, 60), 400, [field]]);
      }
      const read = (await t.get(e.url, basic())).body;
      expect(read).toMatchObject({ rating: 3, feedback: 'ok', active: true });
      expect(read).not.toHaveProperty('expires_at'); // left out without a value (issue 26)
      // feedback needs a rating
      const w2 = await world(1);
      const lone = await t.patch(w2.enrollments[0].url, { feedback: 'no stars' }, basic());
      expect(lone.status).toBe(400);
      expect(Object.keys(lone.body)).toEqual(['feedback']);
      expect((await ratings(w2.courseId)).data).toEqual([]);
      // an organization rating out of 10 accepts 10 (no route sets the scale: the setting is written directly)
      await t.ds.query(`UPDATE organizations SET rating_scale = 10 WHERE id = $1`, [orgUuid(org)]);
      try {
        expect((await t.patch(e.url, { rating: 10 }, basic())).body.rating).toBe(10);
        expect((await ratings(w.courseId)).data[0].attributes).toMatchObject({ rating: 10, scale_max: 10 });
        expect((await t.patch(e.url, { rating: 11 }, basic())).status).toBe(400);
      } finally {
        await t.ds.query(`UPDATE organizations SET rating_scale = 5 WHERE id = $1`, [orgUuid(org)]);
      }
    });

    it('parallel ratings of one enrollment leave one rating; an anonymized learner rates nothing; other organizations 404', async () => {
      const w = await world(1);
      const [e] = w.enrollments;
      const rs = await Promise.all([1, 2, 3, 4, 5].map((rating) => t.patch(e.url, { rating }, basic())));
      expect(rs.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
      expect((await ratings(w.courseId)).data).toHaveLength(1);

      const anon = await t.post(`/v2/students/${e.userId}/anonymize/`, undefined, { token, headers: { 'X-Confirm-Destructive': 'true' } });
      expect(anon.status).toBe(204);
      const refused = await t.patch(e.url, { rating: 5, feedback: 'me' }, basic());
      expect(refused.status).toBe(400);
      expect(Object.keys(refused.body)).toEqual(['user']);

      const theirs = await world(1, other);
      const url = theirs.enrollments[0].url.replace(other.domain_name, dn);
      expect((await t.patch(url, { rating: 5 }, basic())).status).toBe(404);
      expect((await t.patch(theirs.enrollments[0].url, { rating: 5 }, basic())).status).toBe(404);
      expect((await t.get(theirs.enrollments[0].url, basic(other))).body.rating).toBeNull();
    });
  });

  describe('signup fields end to end', () => {
    it('a field made through the API is filled by a domain user, named by a group rule, and carried by the event body', async () => {
      const field = await t.post(`/v1/domains/${dn}/signup-fields`, { type: 'PICKLIST', label: 'Region', required: true, options: [{ value: 'EMEA' }, { value: 'APAC' }] }, basic());
      expect(field.status).toBe(201);
      const emea = field.body.options[0];
      // the group sign-up-field rule accepts the option (an unknown option is refused)
      const group = await t.post('/v1/groups', { name: `EMEA ${rnd()}`, sign_up_field_rule: { enforce: true, require_match_all: false, options: [{ id: emea.id }] } }, basic());
      expect(group.status).toBe(201);
      expect(group.body.sign_up_field_rule).toEqual({ enforce: true, require_match_all: false, options: [{ id: emea.id, value: 'EMEA', domain_name: dn }] });
      expect((await t.post('/v1/groups', { name: 'Nope', sign_up_field_rule: { options: [{ id: 'sfonotanoption' }] } }, basic())).status).toBe(400);

      // a domain user fills it (a value outside the pick-list is refused)
      const u = await t.post(`/v1/domains/${dn}/users`, { user: { email: `flow-${rnd()}@example.test`, first_name: 'Flo', last_name: 'W' } }, basic());
      const uid = u.body.user.id;
      const values = `/v1/domains/${dn}/users/${uid}/signup-fields`;
      expect((await t.post(values, { signup_field: { id: field.body.id }, value: 'Mars' }, basic())).status).toBe(400);
      const v = await t.post(values, { signup_field: { id: field.body.id }, value: 'EMEA' }, basic());
      expect(v.status).toBe(201);
      expect((await t.get(`${values}/${field.body.id}`, basic())).body).toMatchObject({ value: 'EMEA' });

      // the enrollment event carries the value
      const c = await t.post('/v1/courses', { title: 'Flow', short_description: 'S', enforce_sequential_navigation: false }, basic());
      const pc = await t.post(`/v1/domains/${dn}/published-courses`, { course: { id: c.body.id } }, basic());
      expect((await t.post(`/v1/domains/${dn}/published-courses/${pc.body.id}/enrollments`, { user: { id: uid } }, basic())).status).toBe(201);
      const [event] = await t.ds.query(`SELECT payload FROM outbox_events WHERE organization_id = $1 AND event_type = 'COURSE_ENROLLMENT' ORDER BY seq DESC LIMIT 1`, [orgUuid(org)]);
      expect(event.payload.user.id).toBe(uid);
      expect(event.payload.signup_fields).toEqual({ [field.body.id]: { value: 'EMEA', signup_field: { id: field.body.id, label: 'Region' } } });

      // renaming the label shows in later events; deleting the field removes the user's value
      await t.patch(`/v1/domains/${dn}/signup-fields/${field.body.id}`, { label: 'Area' }, basic());
      expect((await t.get(`${values}/${field.body.id}`, basic())).body).toMatchObject({ value: 'EMEA' });
      expect((await t.delete(`/v1/domains/${dn}/signup-fields/${field.body.id}`, basic())).status).toBe(204);
      expect((await t.get(values, basic())).body.count).toBe(0);
      // the group's rule now names an option that is gone: its value and domain are left out (published nullability)
      expect((await t.get(`/v1/groups/${group.body.id}`, basic())).body.sign_up_field_rule.options).toEqual([{ id: emea.id }]);
    });
  });
});
