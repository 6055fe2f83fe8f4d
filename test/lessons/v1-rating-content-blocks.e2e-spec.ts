import { decodeId, encodeId, newUuid } from '../../src/core/ids/ids';
import type { CreatedOrg } from '../../src/modules/organizations/organizations.service';
import { startTestApp, TestApp } from '../support/app';

/**
 * /v1/lessons/{lesson_id}/rating-content-blocks (issue 29 point 3, CONVENTIONS §17): create (with
 * its RATING content item), read, PUT and PATCH (both partial), delete (with its content item);
 * one rating per course; `rating_scale` (5 or 10) stored on the course.
 */
describe('/v1 rating content blocks', () => {
  let t: TestApp;
  let org: CreatedOrg;
  let other: CreatedOrg;
  const key = () => ({ basic: org.api_key });
  const rnd = () => newUuid().slice(0, 8);
  const B = (lesson: string, id = '') => `/v1/lessons/${lesson}/rating-content-blocks${id ? `/${id}` : ''}`;

  beforeAll(async () => {
    t = await startTestApp();
    org = await t.newOrg();
    other = await t.newOrg();
  });
  afterAll(() => t.close());

  async function course(o = org) {
    return (await t.post('/v1/courses', { title: `C ${rnd()}`, short_description: 's', enforce_sequential_navigation: false }, { basic: o.api_key })).body.id as string;
  }
  async function lesson(courseId: string, type = 'MODULAR', o = org, order = 1) {
    const res = await t.post('/v1/lessons', { course_id: courseId, order, title: `L ${rnd()}`, type, ...(type === 'HTML' ? { content_html: '<p>x</p>' } : {}) }, { basic: o.api_key });
    expect(res.status).toBe(201);
    return res.body.id as string;
  }

  it('create, read, update (PUT and PATCH partial), delete; the content item links it; rating_scale on the course', async () => {
    const c = await course();
    const l = await lesson(c);
    await t.post(`/v1/lessons/${l}/content-items`, { header: 'Intro', order: 0, type: 'HTML', content_html: '<p>hi</p>' }, key());
    const created = await t.post(
      B(l),
      { rating_question: 'How was it?', include_additional_feedback: true, additional_feedback_question: 'Why?', rating_scale: 10, rating_scale_low_label: 'Bad', rating_scale_high_label: 'Great' },
      key(),
    );
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.stringMatching(/^rcb[0-9a-z]+$/),
      content_item_id: expect.any(String),
      rating_question: 'How was it?',
      additional_feedback_question: 'Why?',
      include_additional_feedback: true,
      rating_scale: 10,
      rating_scale_low_label: 'Bad',
      rating_scale_high_label: 'Great',
    });
    const id = created.body.id;
    // the RATING content item: last in order, pointing at the block
    const items = (await t.get(`/v1/lessons/${l}/content-items`, key())).body.results;
    expect(items.map((i: any) => [i.type, i.order])).toEqual([
      ['HTML', 0],
      ['RATING', 1],
    ]);
    expect(items[1]).toEqual(expect.objectContaining({ id: created.body.content_item_id, content_rating_id: id }));
    expect(items[0].content_rating_id).toBeUndefined();
    // the scale lives on the course
    const [row] = await t.ownerQuery(`SELECT rating_scale FROM courses WHERE id = $1`, [decodeId('course', c)]);
    expect(row.rating_scale).toBe(10);

    expect((await t.get(B(l, id), key())).body).toEqual(created.body);
    for (const method of ['PUT', 'PATCH']) {
      const res = await t.request(method, B(l, id), { ...key(), body: { rating_question: `Q ${method}` } });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ ...created.body, rating_question: `Q ${method}` });
    }
    const five = await t.patch(B(l, id), { rating_scale: 5 }, key());
    expect(five.body.rating_scale).toBe(5);
    // a bad scale, a too-long question, a wrong type: 400 naming the member, nothing changed
    for (const [body, member] of [
      [{ rating_scale: 7 }, 'rating_scale'],
      [{ rating_question: 'x'.repeat(501) }, 'rating_question'],
      [{ include_additional_feedback: 'maybe' }, 'include_additional_feedback'],
    ] as const) {
      const res = await t.patch(B(l, id), body, key());
      expect({ body, status: res.status, keys: Object.keys(res.body) }).toEqual({ body, status: 400, keys: [member] });
    }
    expect((await t.get(B(l, id), key())).body).toEqual({ ...created.body, rating_question: 'Q PATCH', rating_scale: 5 });

    expect((await t.delete(B(l, id), key())).status).toBe(204);
    expect((await t.get(B(l, id), key())).status).toBe(404);
    expect((await t.get(`/v1/lessons/${l}/content-items`, key())).body.results.map((i: any) => i.type)).toEqual(['HTML']);
    // after the delete the course may have a rating again
    expect((await t.post(B(l), {}, key())).status).toBe(201);
  });

  it('one rating per course, MODULAR lessons only; unknown ids 404; another organization sees nothing', async () => {
    const c = await course();
    const l1 = await lesson(c, 'MODULAR', org, 1);
    const l2 = await lesson(c, 'MODULAR', org, 2);
    const html = await lesson(c, 'HTML', org, 3);
    const first = await t.post(B(l1), {}, key());
    expect(first.status).toBe(201);
    expect(first.body).toEqual(expect.objectContaining({ rating_question: expect.any(String), include_additional_feedback: false, rating_scale: 5 }));
    const second = await t.post(B(l2), {}, key());
    expect(second.status).toBe(400);
    expect(second.body).toEqual({ non_field_errors: ['Only one rating is allowed per course.'] });
    expect((await t.post(B(html), {}, key())).status).toBe(400);
    // the block of l1 is not l2's
    expect((await t.get(B(l2, first.body.id), key())).status).toBe(404);
    expect((await t.get(B(l1, encodeId('ratingContentBlock', newUuid())), key())).status).toBe(404);
    expect((await t.get(B(l1, 'nope'), key())).status).toBe(404);
    // a content item id of another type is not a block
    const htmlItem = (await t.post(`/v1/lessons/${l2}/content-items`, { header: 'x', order: 0, type: 'HTML', content_html: '<p>x</p>' }, key())).body.id;
    expect((await t.get(B(l2, encodeId('ratingContentBlock', decodeId('contentItem', htmlItem)!)), key())).status).toBe(404);
    // another organization: 404 on every operation, and nothing changes
    const o = { basic: other.api_key };
    for (const [method, path, body] of [
      ['GET', B(l1, first.body.id)],
      ['PATCH', B(l1, first.body.id), { rating_question: 'x' }],
      ['PUT', B(l1, first.body.id), { rating_question: 'x' }],
      ['DELETE', B(l1, first.body.id)],
      ['POST', B(l1), {}],
    ] as const) {
      expect({ method, status: (await t.request(method, path, { ...o, body })).status }).toEqual({ method, status: 404 });
    }
    expect((await t.get(B(l1, first.body.id), key())).body).toEqual(first.body);
  });
});
