import { HttpResponse, startTestApp, TestApp } from '../support/app';
import { pause } from '../support/updated-since';
import { journey } from '../support/learner-journey';
import { countQueries, domainOf, insertPlan, insertStudent, joinDomain, planOf } from '../support/fixtures';

/**
 * `updated_since` on @V1Resource lists in detail (docs/decisions/data-out.md): a list of the
 * organization's rows (/v1/promo-code-pools, through v1SqlPage) and a list of one parent's rows
 * (/v1/quizzes/{id}/questions, /v1/domains/{d}/plan/{id}/plan-enrollments): changed rows only, ordered by last change across pages, the count
 * of the filtered rows, 400 on a bad value, and EXPLAIN naming the (…, updated_at, id) index.
 */
jest.setTimeout(120_000);

describe('@V1Resource lists: updated_since in detail', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  /** Every page of a /v1 list (page_size 1), its ids in order. */
  async function pages(path: string, key: { basic: string }): Promise<string[]> {
    const out: string[] = [];
    let url: string | null = path;
    while (url) {
      const res: HttpResponse = await t.get(url.replace(t.baseUrl, ''), key);
      expect(res.status).toBe(200);
      out.push(...res.body.results.map((r: any) => r.id));
      url = res.body.next;
    }
    return out;
  }

  it('/v1/promo-code-pools: the pools changed since, by last change, on promo_code_pools_org_updated_idx', async () => {
    const o = await t.newOrg();
    const key = { basic: o.api_key };
    const pool = async (name: string) => (await t.post('/v1/promo-code-pools', { name, starts_at: '2026-01-01T00:00:00Z', discount_type: 'PERCENT_OFF', percent_off: 10 }, key)).body.id as string;
    const [p1, p2, p3] = [await pool('One'), await pool('Two'), await pool('Three')];
    await pause(5);
    const mid = new Date().toISOString();
    await pause(5);
    expect((await t.patch(`/v1/promo-code-pools/${p3}`, { name: 'Three again' }, key)).status).toBe(200);
    await pause(5);
    expect((await t.patch(`/v1/promo-code-pools/${p1}`, { name: 'One again' }, key)).status).toBe(200);

    const since = await t.get(`/v1/promo-code-pools?updated_since=${encodeURIComponent(mid)}`, key);
    expect(since.status).toBe(200);
    expect(since.body.count).toBe(2);
    expect(since.body.results.map((r: any) => r.id)).toEqual([p3, p1]);
    // across pages: p2 (unchanged since made), then p3 and p1 in the order they changed
    expect(await pages('/v1/promo-code-pools?updated_since=2000-01-01T00:00:00Z&page_size=1', key)).toEqual([p2, p3, p1]);
    // with the list's own filter
    expect((await t.get(`/v1/promo-code-pools?name=One%20again&updated_since=${encodeURIComponent(mid)}`, key)).body.results.map((r: any) => r.id)).toEqual([p1]);
    // without it: oldest first, as before
    expect(await pages('/v1/promo-code-pools?page_size=1', key)).toEqual([p1, p2, p3]);
    const bad = await t.get('/v1/promo-code-pools?updated_since=2026-01-01T00:00:00', key);
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body)).toEqual(['updated_since']);
    const run = await countQueries(() => t.get('/v1/promo-code-pools?updated_since=2000-01-01T00:00:00Z', key));
    expect(await planOf(t, run, /FROM promo_code_pools x WHERE .*ORDER BY updated_at/)).toMatch(/promo_code_pools_org_updated_idx/);
    // another organization's pools are never in the list
    const other = await t.newOrg();
    expect((await t.get('/v1/promo-code-pools?updated_since=2000-01-01T00:00:00Z', { basic: other.api_key })).body.results).toEqual([]);
  });

  it('/v1/quizzes/{id}/questions: the quiz questions changed since, by last change, on questions_quiz_updated_idx', async () => {
    const o = await t.newOrg();
    const key = { basic: o.api_key };
    const quiz = (await t.post('/v1/quizzes', { name: 'Q' }, key)).body.id as string;
    const question = async (html: string) =>
      (await t.post('/v1/quiz-questions', { quiz, html, type: 'MULTIPLE_CHOICE', answers: [{ answer_text: '4', correct: true }, { answer_text: '5' }] }, key)).body.id as string;
    const [q1, q2, q3] = [await question('<p>1</p>'), await question('<p>2</p>'), await question('<p>3</p>')];
    await pause(5);
    const mid = new Date().toISOString();
    await pause(5);
    expect((await t.patch(`/v1/quiz-questions/${q2}`, { html: '<p>2 again</p>' }, key)).status).toBe(200);
    await pause(5);
    expect((await t.patch(`/v1/quiz-questions/${q1}`, { html: '<p>1 again</p>' }, key)).status).toBe(200);

    const since = await t.get(`/v1/quizzes/${quiz}/questions?updated_since=${encodeURIComponent(mid)}`, key);
    expect(since.status).toBe(200);
    expect(since.body.count).toBe(2);
    expect(since.body.results.map((r: any) => r.id)).toEqual([q2, q1]);
    expect(await pages(`/v1/quizzes/${quiz}/questions?updated_since=2000-01-01T00:00:00Z&page_size=1`, key)).toEqual([q3, q2, q1]);
    expect(await pages(`/v1/quizzes/${quiz}/questions?page_size=1`, key)).toEqual([q1, q2, q3]);
    const bad = await t.get(`/v1/quizzes/${quiz}/questions?updated_since=soon`, key);
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body)).toEqual(['updated_since']);
    // the organization's other questions (another quiz's), analyzed: the quiz's own index is then the cheaper than
    // the organization's (questions_org_updated_idx), and with sorts off the plan shows it gives the order
    const other = (await t.post('/v1/quizzes', { name: 'Other' }, key)).body.id as string;
    const filler = { type: 'questions', attributes: { quiz_id: other, question_html: '<p>filler</p>', question_type: 'FREEFORM' } };
    expect((await t.post('/v2/questions/', { data: Array.from({ length: 50 }, () => filler) }, { token: await t.tokenFor(o) })).status).toBe(200);
    await t.ownerQuery('ANALYZE questions');
    const run = await countQueries(() => t.get(`/v1/quizzes/${quiz}/questions?updated_since=2000-01-01T00:00:00Z`, key));
    expect(await planOf(t, run, /FROM questions x WHERE .*ORDER BY x\.updated_at/, { indexOrder: true })).toMatch(/questions_quiz_updated_idx/);
  });
  it('/v1/domains/{d}/plan/{id}/plan-enrollments and /v1/domains/{d}/plan: changed since, by last change, on their (parent, updated_at, id) indexes', async () => {
    const o = await t.newOrg();
    const key = { basic: o.api_key };
    const d = await domainOf(t, o);
    const plan = await insertPlan(t, o, d.uuid);
    const url = `/v1/domains/${d.name}/plan/${plan.id}/plan-enrollments`;
    const enroll = async () => {
      const s = await insertStudent(t, o);
      await joinDomain(t, o, d.uuid, s.uuid);
      const r = await t.post(url, { user: { id: s.id } }, key);
      expect(r.status).toBe(201);
      return r.body.id as string;
    };
    const [e1, e2, e3] = [await enroll(), await enroll(), await enroll()];
    await pause(5);
    const mid = new Date().toISOString();
    await pause(5);
    expect((await t.patch(`${url}/${e3}`, { active: false }, key)).status).toBe(200);
    await pause(5);
    expect((await t.patch(`${url}/${e1}`, { active: false }, key)).status).toBe(200);
    const since = await t.get(`${url}?updated_since=${encodeURIComponent(mid)}`, key);
    expect(since.status).toBe(200);
    expect(since.body.count).toBe(2);
    expect(since.body.results.map((r: any) => r.id)).toEqual([e3, e1]);
    expect(await pages(`${url}?updated_since=2000-01-01T00:00:00Z&page_size=1`, key)).toEqual([e2, e3, e1]);
    expect(await pages(`${url}?page_size=1`, key)).toEqual([e1, e2, e3]);
    expect(Object.keys((await t.get(`${url}?updated_since=x`, key)).body)).toEqual(['updated_since']);
    const run = await countQueries(() => t.get(`${url}?updated_since=2000-01-01T00:00:00Z`, key));
    expect(await planOf(t, run, /FROM "plan_enrollments".*ORDER BY .*updated_at/s)).toMatch(/plan_enrollments_plan_updated_idx/);

    // the user's side: /v1/users/{id}/plan-enrollments (a window, a bare array) by last change
    const u3 = (await t.get(`${url}/${e3}`, key)).body.user.id as string;
    const mine = await t.get(`/v1/users/${u3}/plan-enrollments?updated_since=${encodeURIComponent(mid)}`, key);
    expect(mine.status).toBe(200);
    expect(mine.body.map((r: any) => r.enrollment_id)).toEqual([e3]);
    expect((await t.get(`/v1/users/${u3}/plan-enrollments?updated_since=2999-01-01T00:00:00Z`, key)).body).toEqual([]);
    expect(Object.keys((await t.get(`/v1/users/${u3}/plan-enrollments?updated_since=x`, key)).body)).toEqual(['updated_since']);
    const runMine = await countQueries(() => t.get(`/v1/users/${u3}/plan-enrollments?updated_since=2000-01-01T00:00:00Z`, key));
    expect(await planOf(t, runMine, /FROM plan_enrollments pe.*ORDER BY pe\.updated_at/s)).toMatch(/plan_enrollments_org_user_updated_idx/);

    const plans = await t.get(`/v1/domains/${d.name}/plan?updated_since=2000-01-01T00:00:00Z`, key);
    expect(plans.status).toBe(200);
    expect(plans.body.results.map((r: any) => r.id)).toEqual([plan.id]);
    expect((await t.get(`/v1/domains/${d.name}/plan?updated_since=2999-01-01T00:00:00Z`, key)).body.results).toEqual([]);
    const runPlans = await countQueries(() => t.get(`/v1/domains/${d.name}/plan?updated_since=2000-01-01T00:00:00Z`, key));
    expect(await planOf(t, runPlans, /FROM "plans".*ORDER BY .*updated_at/s)).toMatch(/plans_domain_updated_idx/);
  });
  it('/v1/promo-code-pools/{id}/offers: the offers attached since (the link made), on promo_code_pool_offers_org_pool_created_idx', async () => {
    const o = await t.newOrg();
    const key = { basic: o.api_key };
    const j = journey(t, o);
    const offer = async () => (await t.get(`/v1/domains/${o.domain_name}/published-courses/${(await j.course([{}])).publishedCourseId}`, key)).body.offer.id as string;
    const [o1, o2] = [await offer(), await offer()];
    const pool = (await t.post('/v1/promo-code-pools', { name: 'P', starts_at: '2026-01-01T00:00:00Z', discount_type: 'PERCENT_OFF', percent_off: 10 }, key)).body.id as string;
    expect((await t.post(`/v1/promo-code-pools/${pool}/offers`, { id: o1 }, key)).status).toBe(201);
    await pause(5);
    const mid = new Date().toISOString();
    await pause(5);
    expect((await t.post(`/v1/promo-code-pools/${pool}/offers`, { id: o2 }, key)).status).toBe(201);
    const since = await t.get(`/v1/promo-code-pools/${pool}/offers?updated_since=${encodeURIComponent(mid)}`, key);
    expect(since.status).toBe(200);
    expect(since.body.count).toBe(1);
    expect(since.body.results.map((r: any) => r.offers[0].id)).toEqual([o2]);
    const all = await t.get(`/v1/promo-code-pools/${pool}/offers?updated_since=2000-01-01T00:00:00Z&page_size=1&page=2`, key);
    expect(all.body.results.map((r: any) => r.offers[0].id)).toEqual([o2]);
    expect(Object.keys((await t.get(`/v1/promo-code-pools/${pool}/offers?updated_since=x`, key)).body)).toEqual(['updated_since']);
    const run = await countQueries(() => t.get(`/v1/promo-code-pools/${pool}/offers?updated_since=2000-01-01T00:00:00Z`, key));
    expect(await planOf(t, run, /SELECT offer_id FROM promo_code_pool_offers WHERE .*created_at >=/)).toMatch(/promo_code_pool_offers_org_pool_created_idx/);
  });
});
