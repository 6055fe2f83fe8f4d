import { INestApplicationContext } from '@nestjs/common';
import { parse } from 'csv-parse/sync';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { exportHeader, EXPORT_RESOURCE_NAMES } from '../../src/modules/data-out/export-resources';
import { createWorker } from '../../src/worker';
import { startTestApp, TestApp } from '../support/app';
import { waitFor } from '../support/eventually';
import { decodeId } from '../../src/core/ids/ids';
import { issueCertificate } from '../support/fixtures';
import { dropRedisPrefix } from '../support/webhook-receiver';
import { makeQuiz, MC, quizCourse, right } from '../quizzes/attempts-support';

/**
 * Every resource CONVENTIONS §20 names is exportable, in CSV and in NDJSON: users, enrollments,
 * course progress, lesson progress, certificates, purchases, quiz attempts and xAPI statements (the
 * LRS's, as modules/lrs declares them). Two organizations each get one of everything through the
 * API; each one's export of each resource holds its own rows and none of the other's, with the
 * declared columns in both formats (docs/decisions/data-out.md).
 */
jest.setTimeout(240_000);

type Org = Awaited<ReturnType<TestApp['newOrg']>>;

describe('exports of every resource', () => {
  let t: TestApp;
  let worker: INestApplicationContext;
  const storage = mkdtempSync(path.join(tmpdir(), 'export-resources-'));

  beforeAll(async () => {
    t = await startTestApp({ STORAGE_DIR: storage });
    worker = await createWorker(t.config);
    await worker.init();
  });
  afterAll(async () => {
    await worker?.close();
    await t.close();
    await dropRedisPrefix(t.config.REDIS_URL, t.config.REDIS_PREFIX);
    rmSync(storage, { recursive: true, force: true });
  });

  /** One of each exportable thing in `org`, made through the API (a certificate by the support fixture); answers the public ids to look for. */
  async function world(org: Org) {
    const key = { basic: org.api_key };
    const quiz = await makeQuiz(t, org, { name: 'Export quiz', passing_percentage_correct: 100 }, [MC]);
    const c = await quizCourse(t, org, quiz.id);
    // text PostgreSQL must quote in CSV (a quote, a comma, a line break)
    expect((await t.patch(`/v1/users/${c.learner.id}`, { first_name: 'Zoë "Z", Jr.\nsecond line' }, key)).status).toBe(200);
    const attempt = await t.post(`/v1/quizzes/${quiz.id}/attempts`, { user: { id: c.learner.id }, published_course_id: c.publishedCourseId, answers: quiz.questions.map(right) }, key);
    expect(attempt.status).toBe(201);
    const cert = await issueCertificate(t, org, decodeId('student', c.learner.id)!, decodeId('course', c.courseId)!, { published_uuid: decodeId('publishedCourse', c.publishedCourseId)! });
    const offerId = (await t.get(`/v1/domains/${org.domain_name}/published-courses/${c.publishedCourseId}`, key)).body.offer.id;
    expect((await t.patch(`/v1/offers/${offerId}`, { price_cents: 1000 }, key)).status).toBe(200);
    const buy = await t.post('/v1/purchases', { user: { id: c.learner.id }, offer_id: offerId }, key);
    expect(buy.status).toBe(201);
    const lrsKey = await t.post('/v1/lrs-keys', {}, key);
    expect(lrsKey.status).toBe(201);
    const auth = `Basic ${Buffer.from(`${lrsKey.body.key}:${lrsKey.body.secret}`).toString('base64')}`;
    const statement = {
      actor: { objectType: 'Agent', mbox: `mailto:${org.domain_name}@example.test`, name: 'Ada, "the first"' },
      verb: { id: 'http://adlnet.gov/expapi/verbs/experienced', display: { 'en-US': 'experienced' } },
      object: { objectType: 'Activity', id: `http://example.test/act/${org.domain_name}` },
    };
    const posted = await t.post('/xapi/statements', statement, { headers: { Authorization: auth, 'X-Experience-API-Version': '1.0.3' } });
    expect(posted.status).toBe(200);
    return { learner: c.learner.id, certificate: cert.id as string, purchase: String(buy.body.id), attempt: String(attempt.body.id), statement: posted.body[0] as string };
  }

  async function exportOf(resource: string, format: string, tok: string): Promise<string> {
    const created = await t.post('/v2/exports/', { resource, format }, { token: tok });
    expect({ resource, status: created.status }).toEqual({ resource, status: 202 });
    const done = await waitFor(
      async () => {
        const a = (await t.get(`/v2/exports/${created.body.data.id}`, { token: tok })).body.data.attributes;
        if (a.state === 'FAILED') throw new Error(`${resource} ${format}: ${a.error}`);
        return a.state === 'SUCCEEDED' && a;
      },
      { timeoutMs: 60_000, intervalMs: 100, what: `the ${resource} export` },
    );
    const res = await fetch(done.download_url);
    expect(res.status).toBe(200);
    return res.text();
  }

  it('exports each resource in CSV and NDJSON, the organization’s rows only', async () => {
    expect(EXPORT_RESOURCE_NAMES).toEqual(['users', 'enrollments', 'course-progress', 'lesson-progress', 'certificates', 'purchases', 'quiz-attempts', 'xapi-statements']);
    const a = await t.newOrg();
    const b = await t.newOrg();
    const [mine, theirs] = [await world(a), await world(b)];
    const tok = await t.tokenFor(a, ['data-export:write', 'data-export:read']);
    // where each resource names the learner (its user) and, for some, its own id
    const own: Record<string, (w: typeof mine) => string> = {
      users: (w) => w.learner,
      enrollments: (w) => w.learner,
      'course-progress': (w) => w.learner,
      'lesson-progress': (w) => w.learner,
      certificates: (w) => w.certificate,
      purchases: (w) => w.learner,
      'quiz-attempts': (w) => w.learner,
      'xapi-statements': (w) => w.statement,
    };
    const column = (r: string) => (['users', 'certificates', 'xapi-statements'].includes(r) ? 'id' : 'user_id');

    for (const resource of EXPORT_RESOURCE_NAMES) {
      const csv: Record<string, string>[] = parse(await exportOf(resource, 'csv', tok), { bom: true, columns: true });
      const nd = (await exportOf(resource, 'ndjson', tok))
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l));
      expect({ resource, csv: csv.length > 0, nd: nd.length }).toEqual({ resource, csv: true, nd: csv.length });
      expect(Object.keys(csv[0])).toEqual(exportHeader(resource));
      expect(Object.keys(nd[0])).toEqual(exportHeader(resource));
      // the CSV (runs of columns written by PostgreSQL) says what the NDJSON (every value written by the worker) says
      const asCsv = (v: unknown) => (v === null ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v));
      expect(nd.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, asCsv(v)])))).toEqual(csv);
      const key = column(resource);
      expect({ resource, csv: csv.some((r) => r[key] === own[resource](mine)), nd: nd.some((r) => r[key] === own[resource](mine)) }).toEqual({ resource, csv: true, nd: true });
      expect({ resource, csv: csv.some((r) => r[key] === own[resource](theirs)), nd: nd.some((r) => r[key] === own[resource](theirs)) }).toEqual({ resource, csv: false, nd: false });
      if (resource === 'xapi-statements') {
        // the statement as the LRS answers it: JSON text in CSV (quoted: it holds commas and quotes), the object in NDJSON
        expect(JSON.parse(csv[0].statement)).toEqual(nd[0].statement);
        expect(nd[0]).toMatchObject({ id: mine.statement, verb_id: 'http://adlnet.gov/expapi/verbs/experienced', voided: false });
        expect(nd[0].statement.actor.name).toBe('Ada, "the first"');
        expect(csv[0].voided).toBe('false');
      }
      if (resource === 'purchases') expect(nd[0].price).toMatch(/^\d+\.\d\d$/); // an amount, as text with two decimals
      if (resource === 'quiz-attempts') expect(nd[0]).toMatchObject({ passed: true, attempt_number: 1 });
    }
  });
});
