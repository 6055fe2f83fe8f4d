import { getQueueToken } from '@nestjs/bullmq';
import { INestApplicationContext } from '@nestjs/common';
import { Job, Queue } from 'bullmq';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SMTPServer } from 'smtp-server';
import { AppConfig, loadConfig } from '../../src/core/config/config';
import { PasswordResetMailJob, QUEUES } from '../../src/core/queue/queues';
import { createWorker } from '../../src/worker';
import { startTestApp, TestApp } from '../support/app';
import { domainOf, insertStudent, orgUuid } from '../support/fixtures';

interface Received {
  from: string;
  to: string[];
  raw: string;
}

/** A real SMTP listener on 127.0.0.1 that keeps every message it is given. */
async function startSmtp() {
  const received: Received[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        received.push({ from: (session.envelope.mailFrom as any).address, to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString('utf8') });
        cb();
      });
    },
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = (server as any).server.address() as AddressInfo;
  return { url: `smtp://127.0.0.1:${port}`, received, close: () => new Promise<void>((r) => server.close(() => r())) };
}

async function startWorker(t: TestApp, overrides: Partial<AppConfig>): Promise<INestApplicationContext> {
  const w = await createWorker(loadConfig(process.env, { ...t.config, ...overrides }));
  await w.init();
  return w;
}

async function finished(queue: Queue, id: string): Promise<Job> {
  for (let i = 0; i < 200; i++) {
    const state = await queue.getJobState(id);
    // read the job after its state: a job object fetched before completion has no returnvalue yet
    if (state === 'completed') return (await queue.getJob(id))!;
    if (state === 'failed') throw new Error(`job ${id} failed: ${(await queue.getJob(id))?.failedReason}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`job ${id} did not finish`);
}

/** Undo quoted-printable soft line breaks so a long link can be found in the raw message. */
const unfold = (raw: string) => raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');

describe('mail worker: password-reset mail over SMTP', () => {
  let t: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let worker: INestApplicationContext;
  let queue: Queue;
  beforeAll(async () => {
    smtp = await startSmtp();
    t = await startTestApp({ SMTP_URL: smtp.url, MAIL_FROM: 'courses@platform.test' });
    worker = await startWorker(t, {});
    queue = t.app.get<Queue>(getQueueToken(QUEUES.mail));
  });
  afterAll(async () => {
    await worker?.close();
    await t?.close();
    await smtp?.close();
  });

  it('the /v2 send-password-reset job is delivered to the student with the signed link', async () => {
    const org = await t.newOrg();
    const token = await t.tokenFor(org);
    const student = await insertStudent(t, org, { email: 'ada@learners.test', first_name: 'Ada' });
    const domain = await domainOf(t, org);
    const res = await t.post(`/v2/students/${student.id}/send-password-reset/?domain=${domain.name}`, undefined, { token });
    expect(res.status).toBe(202);
    const [job] = (await queue.getJobs(['waiting', 'active', 'completed', 'delayed'])).filter((j) => j?.data?.studentId === student.uuid);
    const done = await finished(queue, job.id!);
    expect(done.returnvalue).toEqual({ sent: true, via: 'smtp' });

    const mail = smtp.received.find((m) => m.to.includes('ada@learners.test'));
    expect(mail).toBeDefined();
    expect(mail!.from).toBe('courses@platform.test');
    const text = unfold(mail!.raw);
    expect(text).toContain(job.data.resetUrl);
    expect(job.data.resetUrl).toMatch(new RegExp(`^https://${domain.name.replace(/\./g, '\\.')}/auth/reset-password`));
    expect(text).toMatch(/Subject: Reset your password for/);
    expect(text).toContain('Hello Ada,');
  });

  it("anonymized, missing and other organizations' students: the job completes and nothing is sent", async () => {
    const org = await t.newOrg();
    const other = await t.newOrg();
    const anon = await insertStudent(t, org, { email: 'gone@learners.test' });
    await t.ds.query(`UPDATE users SET is_anonymized = true, email = 'anonymized-' || id || '@invalid' WHERE id = $1`, [anon.uuid]);
    const foreign = await insertStudent(t, other, { email: 'foreign@learners.test' });
    const before = smtp.received.length;
    const base = { kind: 'password-reset' as const, organizationId: orgUuid(org), domainName: 'x.test', resetUrl: 'https://x.test/auth/reset-password?token=t' };
    const jobs: PasswordResetMailJob[] = [
      { ...base, studentId: anon.uuid },
      { ...base, studentId: '00000000-0000-4000-8000-000000000000' },
      // a job naming org's organization but a student of another organization
      { ...base, studentId: foreign.uuid },
    ];
    for (const data of jobs) {
      const added = await queue.add('password-reset', data);
      const done = await finished(queue, added.id!);
      expect(done.returnvalue).toEqual({ sent: false, reason: 'no-recipient' });
    }
    expect(smtp.received.length).toBe(before);
  });
});

describe('mail worker: outbox folder without SMTP_URL', () => {
  it('writes the message as an .eml file into MAIL_OUTBOX_DIR', async () => {
    const outbox = mkdtempSync(join(tmpdir(), 'cp-outbox-'));
    const t = await startTestApp({ SMTP_URL: undefined, MAIL_OUTBOX_DIR: outbox });
    const worker = await startWorker(t, { SMTP_URL: undefined });
    try {
      const org = await t.newOrg();
      const student = await insertStudent(t, org, { email: 'grace@learners.test', first_name: 'Grace' });
      const queue = t.app.get<Queue>(getQueueToken(QUEUES.mail));
      const resetUrl = 'https://learn.example.test/auth/reset-password?token=abc.def';
      const added = await queue.add('password-reset', { kind: 'password-reset', organizationId: orgUuid(org), studentId: student.uuid, domainName: 'learn.example.test', resetUrl });
      const done = await finished(queue, added.id!);
      expect(done.returnvalue).toEqual({ sent: true, via: 'outbox' });
      const files = readdirSync(outbox);
      expect(files).toHaveLength(1);
      expect(files[0]).toMatch(/\.eml$/);
      const raw = unfold(readFileSync(join(outbox, files[0]), 'utf8'));
      expect(raw).toMatch(/^To: grace@learners\.test$/m);
      expect(raw).toContain(resetUrl);
    } finally {
      await worker.close();
      await t.close();
      rmSync(outbox, { recursive: true, force: true });
    }
  });
});
