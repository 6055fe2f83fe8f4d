import { newUuid } from '../../src/core/ids/ids';
import type { CreatedOrg } from '../../src/modules/organizations/organizations.service';
import { startTestApp, TestApp } from '../support/app';
import { PublishedSchemas } from '../support/published-schemas';

/**
 * A /v2 RATING content item carries the course's rating scale (the published RatingConfig:
 * `rating_scale` is a proxy of the course's, not the block's): a /v2 lesson write that names a scale
 * sets the course's, a /v1 rating block write that changes it shows on /v2 reads, an item without a
 * stored configuration answers its course's scale, and the low/high labels (10-point only) are left
 * out on a 5-point scale (docs/decisions/conformance.md).
 */
describe('/v2 RATING content items: the course rating scale', () => {
  let t: TestApp;
  let org: CreatedOrg;
  let token: string;
  const published = new PublishedSchemas();
  const rnd = () => newUuid().slice(0, 8);

  beforeAll(async () => {
    t = await startTestApp();
    org = await t.newOrg();
    token = await t.tokenFor(org);
  });
  afterAll(() => t.close());

  const course = async () => (await t.post('/v1/courses', { title: `C ${rnd()}`, short_description: 's', enforce_sequential_navigation: false }, { basic: org.api_key })).body.id as string;
  const ratingOf = (lesson: any) => lesson.attributes.content_items.find((c: any) => c.type === 'RATING').rating;
  const v2Lesson = async (id: string) => {
    const res = await t.get(`/v2/lessons/${id}`, { token });
    expect(res.status).toBe(200);
    expect(published.check(published.find('GET', '/v2/lessons/{id}')!, 200, res.body)).toEqual([]);
    return res.body.data;
  };

  it('a /v2 write sets the course scale, a /v1 block write changes it, /v2 reads answer it; labels only on 10', async () => {
    const c = await course();
    const created = await t.post(
      '/v2/lessons/',
      {
        data: [
          {
            type: 'lessons',
            attributes: {
              course_id: c,
              type: 'MODULAR',
              title: 'Rated',
              content_items: [{ type: 'RATING', rating: { rating_question: 'How?', rating_scale: 10, rating_scale_low_label: 'Bad', rating_scale_high_label: 'Great' } }],
            },
          },
        ],
      },
      { token },
    );
    expect(created.status).toBe(200);
    const lesson = created.body.data[0].result;
    expect(ratingOf(lesson)).toEqual({ rating_question: 'How?', rating_scale: 10, rating_scale_low_label: 'Bad', rating_scale_high_label: 'Great' });
    expect(ratingOf(await v2Lesson(lesson.id))).toMatchObject({ rating_scale: 10 });

    // the /v1 block is the same item: its scale write goes to the course, and /v2 reads it from there
    const items = (await t.get(`/v1/lessons/${lesson.id}/content-items`, { basic: org.api_key })).body.results;
    const block = items.find((i: any) => i.type === 'RATING').content_rating_id;
    const blockRead = await t.get(`/v1/lessons/${lesson.id}/rating-content-blocks/${block}`, { basic: org.api_key });
    expect(blockRead.body).toMatchObject({ rating_scale: 10 });
    expect((await t.patch(`/v1/lessons/${lesson.id}/rating-content-blocks/${block}`, { rating_scale: 5 }, { basic: org.api_key })).status).toBe(200);
    expect(ratingOf(await v2Lesson(lesson.id))).toEqual({ rating_question: 'How?', rating_scale: 5 });

    // a /v2 update of the lesson naming 10 again moves the course back
    const itemId = (await v2Lesson(lesson.id)).attributes.content_items[0].id;
    const updated = await t.patch(
      '/v2/lessons/',
      { data: [{ type: 'lessons', id: lesson.id, attributes: { content_items: [{ id: itemId, type: 'RATING', rating: { rating_scale: 10 } }] } }] },
      { token },
    );
    expect(updated.status).toBe(200);
    expect(ratingOf(updated.body.data[0].result)).toMatchObject({ rating_scale: 10 });
    expect((await t.get(`/v1/lessons/${lesson.id}/rating-content-blocks/${block}`, { basic: org.api_key })).body).toMatchObject({ rating_scale: 10 });
  });

  it('a RATING item with no stored configuration answers its course scale (the block of another lesson set it)', async () => {
    const c = await course();
    const first = (await t.post('/v1/lessons', { course_id: c, order: 1, title: 'A', type: 'MODULAR' }, { basic: org.api_key })).body.id;
    expect((await t.post(`/v1/lessons/${first}/rating-content-blocks`, { rating_question: 'Rate', rating_scale: 10 }, { basic: org.api_key })).status).toBe(201);
    const second = (await t.post('/v1/lessons', { course_id: c, order: 2, title: 'B', type: 'MODULAR' }, { basic: org.api_key })).body.id;
    expect((await t.post(`/v1/lessons/${second}/content-items`, { header: 'Rate', order: 1, type: 'RATING' }, { basic: org.api_key })).status).toBe(201);
    expect(ratingOf(await v2Lesson(second))).toEqual({ rating_scale: 10 });
    // a course with no scale of its own answers the organization's (5)
    const plain = await course();
    const third = (await t.post('/v1/lessons', { course_id: plain, order: 1, title: 'C', type: 'MODULAR' }, { basic: org.api_key })).body.id;
    await t.post(`/v1/lessons/${third}/content-items`, { header: 'Rate', order: 1, type: 'RATING' }, { basic: org.api_key });
    expect(ratingOf(await v2Lesson(third))).toEqual({ rating_scale: 5 });
  });
});
