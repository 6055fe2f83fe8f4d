import { INestApplicationContext } from '@nestjs/common';
import ICAL from 'ical.js';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/core/config/config';
import { createWorker } from '../../src/worker';
import { startTestApp, TestApp } from '../support/app';
import { eventually } from '../support/eventually';
import { journey } from '../support/learner-journey';
import { dropRedisPrefix, Receiver, startReceiver, verifyStandardWebhook } from '../support/webhook-receiver';

jest.setTimeout(90_000);

/** The part of a type (text/calendar, text/plain) of an RFC 5322 message written by nodemailer (base64, quoted-printable or plain). */
function mailPart(raw: string, type = 'text/calendar'): string {
  const part = raw.split(/\r?\n--[^\r\n]+\r?\n/).find((p) => new RegExp(`^Content-Type: ${type.replace('/', '\\/')}`, 'im').test(p));
  if (!part) throw new Error(`no ${type} part`);
  const [head, ...rest] = part.split(/\r?\n\r?\n/);
  let body = rest.join('\n\n').replace(/\r?\n--[^\r\n]+--\s*$/, '');
  const enc = /Content-Transfer-Encoding: (\S+)/i.exec(head)?.[1]?.toLowerCase();
  if (enc === 'base64') body = Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (enc === 'quoted-printable') body = body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, h) => String.fromCharCode(parseInt(h, 16)));
  return body;
}

/**
 * Issue 13 "Done when": a session scheduled, filled to its seats, attended and completed through
 * the API alone, with the event and the invitations: a real worker delivers the signed
 * VILT_EVENT_REGISTRATION (and the completions) to a local receiver and mails the invitations
 * into MAIL_OUTBOX_DIR, read back with ical.js.
 */
describe('live training end to end: schedule, fill, attend, complete', () => {
  let t: TestApp;
  let worker: INestApplicationContext;
  let r: Receiver;
  let outbox: string;

  beforeAll(async () => {
    outbox = mkdtempSync(join(tmpdir(), 'cp-vilt-journey-'));
    t = await startTestApp({ ALLOW_PRIVATE_URLS: true, SMTP_URL: undefined, MAIL_OUTBOX_DIR: outbox });
    r = await startReceiver();
    worker = await createWorker(loadConfig(process.env, { ...t.config, SMTP_URL: undefined, MAIL_OUTBOX_DIR: outbox, WEBHOOK_RELAY_INTERVAL_MS: 100, WEBHOOK_RETRY_SCALE: 0.001 }));
    await worker.init();
  });
  afterAll(async () => {
    await worker?.close();
    await r?.close();
    await t?.close();
    await dropRedisPrefix(t.config.REDIS_URL, t.config.REDIS_PREFIX);
    rmSync(outbox, { recursive: true, force: true });
  });

  it('two seats: two learners registered and invited, the third refused; attendance completes the lesson and the course; events delivered signed', async () => {
    const org = await t.newOrg();
    const key = { basic: org.api_key };
    const hook = await t.post('/v1/webhooks', { target_url: r.url }, key);
    expect(hook.status).toBe(201);
    const j = journey(t, org);
    const course = await j.course([{ type: 'VILT', title: 'Live workshop' }]);
    expect((await t.post('/v1/ilt-instructors', { email: 'host@example.test' }, key)).status).toBe(201);
    const s = await t.post(
      '/v1/ilt-sessions',
      {
        instructor_email: 'host@example.test',
        provider: 'zoom.meeting',
        lesson: course.lessonIds[0],
        display_name: 'Workshop',
        starts_at: '2027-09-01T07:00:00Z',
        ends_at: '2027-09-01T09:00:00Z',
        timezone: 'Asia/Tokyo',
        seats_total: 2,
      },
      key,
    );
    expect(s.status).toBe(201);
    const events = await t.get(`/v1/vilt-session-events?session__lesson__course__id=${course.courseId}`, key);
    expect(events.body.results.map((e: any) => e.id)).toEqual([s.body.id]);

    const learners = [await j.learner(), await j.learner(), await j.learner()];
    const enrollments = [];
    for (const l of learners) enrollments.push(await j.enroll(l.id, course.publishedCourseId));
    const regs = [];
    for (const e of enrollments) regs.push(await t.post('/v1/vilt-session-registrations', { vilt_session: { id: s.body.vilt_session.id }, enrollment_id: e.id }, key));
    expect(regs.map((x) => x.status)).toEqual([201, 201, 400]);
    expect(regs[2].body).toEqual({ vilt_session: ['This session has no seats left.'] });
    expect((await t.get(`/v1/vilt-session-events/${s.body.id}`, key)).body.vilt_session).toMatchObject({ seats_total: 2, registration_count: 2 });

    for (const reg of regs.slice(0, 2)) {
      expect((await t.patch(`/v1/vilt-session-registrations/${reg.body.id}`, { attended: true }, key)).body).toEqual({ id: reg.body.id, attended: true });
    }
    for (const l of learners.slice(0, 2)) {
      const [lesson] = await j.lessons(l.id, course.publishedCourseId);
      expect(lesson.lesson_progress.completed_at).toEqual(expect.any(String));
    }
    expect((await j.lessons(learners[2].id, course.publishedCourseId))[0].lesson_progress.completed_at).toBeNull();

    // the events, delivered and signed: one registration event per seat, each learner's completions
    const delivered = await eventually(
      () => {
        const bodies = r.received.map((g) => ({ g, b: JSON.parse(g.body) }));
        const want = (type: string) => bodies.filter((x) => x.b.event_type === type);
        expect(want('VILT_EVENT_REGISTRATION')).toHaveLength(2);
        expect(want('LESSON_COMPLETION')).toHaveLength(2);
        expect(want('COURSE_COMPLETION')).toHaveLength(2);
        return bodies;
      },
      { timeoutMs: 30_000 },
    );
    for (const { g } of delivered) expect(verifyStandardWebhook(hook.body.secret, g.headers, g.body)).toBe(true);
    const vilt = delivered.filter((x) => x.b.event_type === 'VILT_EVENT_REGISTRATION').map((x) => x.b);
    expect(vilt.map((b) => b.user.id).sort()).toEqual([learners[0].id, learners[1].id].sort());
    expect(vilt.map((b) => b.vilt_session.registration_count).sort()).toEqual([1, 2]);
    for (const b of vilt) {
      expect(b).toMatchObject({
        course: { id: course.courseId, published_course_id: course.publishedCourseId },
        lesson: { id: course.lessonIds[0], title: 'Live workshop' },
        vilt_session: {
          id: s.body.vilt_session.id,
          display_name: 'Workshop',
          seats_total: 2,
          events: [{ id: s.body.id, timezone: 'Asia/Tokyo', provider: 'zoom.meeting', starts_at: '2027-09-01T07:00:00.000Z' }],
        },
      });
    }
    expect(
      delivered
        .filter((x) => x.b.event_type === 'COURSE_COMPLETION')
        .map((x) => x.b.user.id)
        .sort(),
    ).toEqual([learners[0].id, learners[1].id].sort());

    // the invitations: one per registered learner, none for the refused one
    const mailsTo = (email: string) =>
      readdirSync(outbox)
        .filter((f) => f.endsWith('.eml'))
        .map((f) => readFileSync(join(outbox, f), 'utf8'))
        .filter((raw) => new RegExp(`^To: ${email.replace(/[.+]/g, '\\$&')}$`, 'm').test(raw));
    for (const l of learners.slice(0, 2)) {
      const [raw] = await eventually(
        () => {
          const m = mailsTo(l.email);
          expect(m).toHaveLength(1);
          return m;
        },
        { timeoutMs: 15_000 },
      );
      const cal = new ICAL.Component(ICAL.parse(mailPart(raw)));
      expect(cal.getFirstPropertyValue('method')).toBe('REQUEST');
      const ev = new ICAL.Event(cal.getFirstSubcomponent('vevent')!);
      expect([ev.uid, ev.startDate.zone?.tzid, ev.startDate.toString()]).toEqual([`${s.body.id}@live-training`, 'Asia/Tokyo', '2027-09-01T16:00:00']);
      // the text beside it gives the meeting in the session's zone, not UTC labelled with the zone
      expect(mailPart(raw, 'text/plain')).toContain('- Workshop: 2027-09-01 16:00 to 18:00 Asia/Tokyo (UTC+09:00)');
    }
    expect(mailsTo(learners[2].email)).toHaveLength(0);
  });
});
