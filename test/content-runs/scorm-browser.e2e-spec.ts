import { INestApplicationContext } from '@nestjs/common';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext } from 'playwright-core';
import { decodeId } from '../../src/core/ids/ids';
import { startTestApp, TestApp } from '../support/app';
import { dropRedisPrefix, Receiver, startReceiver } from '../support/webhook-receiver';
import { cmi5Package, scormPackage, serveZips, startWorker, webPackageCourse } from './support';

jest.setTimeout(180_000);

/** Debian's chromium (`apt-get install -y chromium`; .ci/run installs it). */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/**
 * The adapter driven by the content's own calls in headless Chromium (CONVENTIONS §18): a SCORM
 * 1.2 and a SCORM 2004 package, each opened from its launch URL; the SCO finds the API in its
 * parent, suspends on its first visit, and on the second (entry `resume`, its location and
 * suspend_data back) completes and passes. The lesson and course complete, a certificate is
 * issued, LESSON_COMPLETION and COURSE_COMPLETION are delivered.
 */
describe('the SCORM adapter in headless Chromium', () => {
  let t: TestApp;
  let worker: INestApplicationContext;
  let zips: Awaited<ReturnType<typeof serveZips>>;
  let r: Receiver;
  let browser: BrowserContext;
  let profile: string;

  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium`);
    t = await startTestApp({ ALLOW_PRIVATE_URLS: true });
    zips = await serveZips();
    r = await startReceiver();
    worker = await startWorker(t);
    const { chromium } = await import('playwright-core');
    profile = mkdtempSync(join(tmpdir(), 'cp-chromium-'));
    browser = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, chromiumSandbox: false, args: FLAGS });
  });
  afterAll(async () => {
    await browser?.close();
    if (profile) rmSync(profile, { recursive: true, force: true });
    await worker?.close();
    await zips?.close();
    await r?.close();
    await t?.close();
    await dropRedisPrefix(t.config.REDIS_URL, t.config.REDIS_PREFIX);
  });

  /** Open a launch URL in a new page; answer what the SCO (in the player's frame) or the AU (the page itself) logged once it is done. */
  async function play(launchUrl: string, framed = true): Promise<{ done: string; log: Record<string, string> }> {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    try {
      await page.goto(launchUrl);
      const frame = framed ? page.frameLocator('#content') : page;
      await frame.locator('body[data-done]').waitFor({ timeout: 30_000 });
      const done = (await frame.locator('body').getAttribute('data-done'))!;
      const text = await frame.locator('#log').textContent();
      const log = Object.fromEntries((text ?? '').split('\n').map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]));
      expect(errors).toEqual([]);
      return { done, log };
    } finally {
      await page.close();
    }
  }

  it.each(['1.2', '2004'] as const)('SCORM %s: suspended, resumed, completed; every effect of completion', async (version) => {
    r.received.length = 0;
    const org = await t.newOrg();
    const key = { basic: org.api_key };
    const hook = await t.post('/v1/webhooks', { target_url: r.url }, key);
    expect(hook.status).toBe(201);
    const c = await webPackageCourse(t, org, zips.host(`browser-${version}.zip`, await scormPackage(version)));
    const launch = () => t.post(`/v1/lessons/${c.lessonId}/launches`, { user: { id: c.learner.id } }, key);

    const first = await launch();
    expect(first.status).toBe(201);
    const one = await play(first.body.launch_url);
    expect(one.done).toBe('suspended');
    expect(one.log).toMatchObject({
      helper: 'loaded',
      init: 'true',
      entry: 'ab-initio',
      name: version === '1.2' ? 'Lovelace, Ada' : 'Ada Lovelace',
      location: '',
      suspend_data: '',
      bad_set: version === '1.2' ? 'false/405' : 'false/406',
      commit: 'true',
      term: 'true',
      after: version === '1.2' ? '/101' : '/123',
    });
    const lessonUuid = decodeId('lesson', c.lessonId);
    expect((await t.ds.query(`SELECT completed_at FROM lesson_progress WHERE lesson_id = $1`, [lessonUuid]))[0].completed_at).toBeNull();

    // the used launch URL opens nothing more
    const reused = await browser.newPage();
    const res = await reused.goto(first.body.launch_url);
    expect(res!.status()).toBe(403);
    await reused.close();

    const second = await launch();
    const two = await play(second.body.launch_url);
    expect(two.done).toBe('completed');
    expect(two.log).toMatchObject({ entry: 'resume', location: 'page-7', suspend_data: 'answers:A,B,C;lang=en', commit: 'true', term: 'true' });

    const [lp] = await t.ds.query(`SELECT completed_at, success_status, score, max_score FROM lesson_progress WHERE lesson_id = $1`, [lessonUuid]);
    expect(lp).toMatchObject({ completed_at: expect.any(Date), success_status: 'PASSED', score: 85, max_score: 100 });
    const [attempt] = await t.ds.query(`SELECT state, total_time_cs FROM content_attempts WHERE lesson_id = $1`, [lessonUuid]);
    expect(attempt).toEqual({ state: 'CLOSED', total_time_cs: '18000' });
    const token = await t.tokenFor(org);
    const certs = await t.get(`/v2/certificates/?filter[student.id]=${c.learner.id}`, { token });
    expect(certs.body.data).toHaveLength(1);

    await r.waitFor(4, 30_000);
    await new Promise((res) => setTimeout(res, 500));
    const bodies = r.received.map((g) => JSON.parse(g.body));
    expect(bodies.filter((b) => b.event_type === 'LESSON_COMPLETION')).toEqual([expect.objectContaining({ lesson: expect.objectContaining({ id: c.lessonId }), success_status: 'PASSED', score: 85 })]);
    expect(bodies.filter((b) => b.event_type === 'COURSE_COMPLETION')).toEqual([expect.objectContaining({ user: expect.objectContaining({ id: c.learner.id }) })]);
  });

  it('cmi5: the AU fetches its credentials, reads LMS.LaunchData and sends its statements; satisfied completes lesson and course', async () => {
    r.received.length = 0;
    const org = await t.newOrg();
    const key = { basic: org.api_key };
    expect((await t.post('/v1/webhooks', { target_url: r.url }, key)).status).toBe(201);
    const c = await webPackageCourse(t, org, zips.host('browser-cmi5.zip', await cmi5Package({ moveOn: 'CompletedAndPassed', masteryScore: 0.8 })));
    const launch = await t.post(`/v1/lessons/${c.lessonId}/launches`, { user: { id: c.learner.id } }, key);
    const run = await play(launch.body.launch_url, false);
    expect(run.done).toBe('completed');
    expect(run.log).toMatchObject({ again: '403', moveOn: 'CompletedAndPassed', masteryScore: '0.8', initialized: '200', completed: '200', passed: '200', terminated: '200' });
    const [lp] = await t.ds.query(`SELECT completed_at, success_status, score FROM lesson_progress WHERE lesson_id = $1`, [decodeId('lesson', c.lessonId)]);
    expect(lp).toMatchObject({ completed_at: expect.any(Date), success_status: 'PASSED', score: 90 });
    const certs = await t.get(`/v2/certificates/?filter[student.id]=${c.learner.id}`, { token: await t.tokenFor(org) });
    expect(certs.body.data).toHaveLength(1);
    await r.waitFor(4, 30_000);
    await new Promise((res) => setTimeout(res, 500));
    const types = r.received.map((g) => JSON.parse(g.body).event_type);
    expect(types.filter((x) => x === 'LESSON_COMPLETION')).toHaveLength(1);
    expect(types.filter((x) => x === 'COURSE_COMPLETION')).toHaveLength(1);
  });
});
