import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { readFileSync } from 'fs';
import { join } from 'path';
import { EVENT_PAYLOADS, type EventType } from '../../src/core/events/event-payloads';
import { EVENT_TYPES } from '../../src/core/events/outbox';
import { EVENT_SAMPLE_PATHS } from '../../src/modules/webhooks/samples';
import type { CreatedOrg } from '../../src/modules/organizations/organizations.service';
import { startTestApp, TestApp } from '../support/app';
import { orgUuid } from '../support/fixtures';
import { journey } from '../support/learner-journey';

/**
 * The declared event bodies (src/core/events/event-payloads.ts) against the real ones: the
 * platform's published sample (test/reference/webhook-event-samples.md, its JSON block) validates
 * against its type's declaration; every sample-* operation answers a body valid under its type's
 * declaration; every event a learner journey writes through the API validates too (ajv).
 */
const ajv = addFormats(new Ajv({ allErrors: true, strict: true, keywords: ['x-extension'] }));
const validators = Object.fromEntries(Object.entries(EVENT_PAYLOADS).map(([type, d]) => [type, ajv.compile(d.schema)])) as Record<EventType, ReturnType<typeof ajv.compile>>;
const problems = (type: string, body: unknown, from = validators) => {
  const v = from[type as EventType];
  if (!v) return [`no declaration for ${type}`];
  return v(body) ? [] : (v.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message} ${JSON.stringify(e.params)}`);
};

/**
 * The declaration as the published platform sends it: our extension members (`x-extension`) are not
 * required (the real sample has no `id`, for one; docs/decisions/webhooks.md, "Event bodies").
 */
function publishedView(schema: any): any {
  if (!schema || typeof schema !== 'object') return schema;
  if (Array.isArray(schema)) return schema.map(publishedView);
  const out: any = Object.fromEntries(Object.entries(schema).map(([k, v]) => [k, publishedView(v)]));
  if (schema.properties && Array.isArray(schema.required)) out.required = schema.required.filter((k: string) => !schema.properties[k]?.['x-extension']);
  return out;
}
const publishedValidators = Object.fromEntries(Object.entries(EVENT_PAYLOADS).map(([type, d]) => [type, ajv.compile(publishedView(d.schema))])) as Record<EventType, ReturnType<typeof ajv.compile>>;

const md = readFileSync(join(__dirname, '../reference/webhook-event-samples.md'), 'utf8');
const REAL_SAMPLES = [...md.matchAll(/```json\n([\s\S]*?)\n```/g)].map((m) => JSON.parse(m[1]) as { event_type: string });

jest.setTimeout(120_000);

describe('webhook event bodies validate against their declarations', () => {
  let t: TestApp;
  let org: CreatedOrg;
  beforeAll(async () => {
    t = await startTestApp();
    org = await t.newOrg();
  });
  afterAll(() => t.close());

  it('one declaration and one sample path per event type', () => {
    expect(Object.keys(EVENT_PAYLOADS).sort()).toEqual([...EVENT_TYPES].sort());
    expect(new Set(Object.values(EVENT_SAMPLE_PATHS)).size).toBe(EVENT_TYPES.length);
    for (const type of EVENT_TYPES) expect(EVENT_SAMPLE_PATHS[type]).toBe(EVENT_PAYLOADS[type].sample);
  });

  it("the platform's real sample bodies validate against their type's declaration (our extension members aside)", () => {
    expect(REAL_SAMPLES.length).toBeGreaterThan(0);
    for (const body of REAL_SAMPLES) expect({ type: body.event_type, problems: problems(body.event_type, body, publishedValidators) }).toEqual({ type: body.event_type, problems: [] });
  });

  it('a body that breaks the declaration is refused (the check can fail)', () => {
    const [real] = REAL_SAMPLES as any[];
    expect(problems('COURSE_ENROLLMENT', { ...real, course: { ...real.course, url: undefined } }).length).toBeGreaterThan(0);
    expect(problems('COURSE_ENROLLMENT', { ...real, surprise: 1 }).length).toBeGreaterThan(0);
    expect(problems('COURSE_ENROLLMENT', { ...real, signup_fields: [] }).length).toBeGreaterThan(0);
  });

  it('every sample-* operation (generated events) answers a body valid under its declaration', async () => {
    const fresh = await t.newOrg();
    for (const type of EVENT_TYPES) {
      const res = await t.get(`/v1/webhooks/${EVENT_SAMPLE_PATHS[type]}`, { basic: fresh.api_key });
      expect(res.status).toBe(200);
      const [event] = res.body.results;
      expect({ type, problems: problems(type, event) }).toEqual({ type, problems: [] });
    }
  });

  it('every event a learner journey writes through the API validates against its declaration', async () => {
    const j = journey(t, org);
    const course = await j.course([{}, {}]);
    const path = await j.path([course.publishedCourseId]);
    const learner = await j.learner();
    await j.enroll(learner.id, course.publishedCourseId);
    await j.enrollPath(learner.id, path.id);
    const base = `/v1/users/${learner.id}/published-courses/${course.publishedCourseId}`;
    const done = new Date().toISOString();
    // one lesson completed (LESSON_COMPLETION), then the second: the course and the path complete
    for (const lessonId of course.lessonIds) {
      const res = await t.patch(`${base}/lessons/${lessonId}`, { lesson_progress: { completed_at: done, success_status: 'PASSED', score: 90 } }, { basic: org.api_key });
      expect(res.status).toBeLessThan(300);
    }
    // the webhook events (the outbox also holds the sync events the database writes, user.updated, ...)
    const rows: { event_type: string; payload: unknown }[] = await t.ds.query(
      `SELECT event_type, payload FROM outbox_events WHERE organization_id = $1 AND event_type = ANY($2::text[]) ORDER BY seq`,
      [orgUuid(org), EVENT_TYPES],
    );
    const types = new Set(rows.map((r) => r.event_type));
    for (const type of ['DOMAIN_ENROLLMENT', 'COURSE_ENROLLMENT', 'PATH_ENROLLMENT', 'LESSON_COMPLETION', 'COURSE_COMPLETION', 'PATH_COMPLETION']) expect(types).toContain(type);
    const bad = rows.map((r) => ({ type: r.event_type, problems: problems(r.event_type, r.payload) })).filter((r) => r.problems.length);
    expect(bad).toEqual([]);
  });
});
