import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { BrowserContext, chromium } from 'playwright-core';
import { SCOPE_CODENAMES } from '../../src/core/auth/scopes';
import { startTestApp, TestApp } from '../support/app';
import { authorizeQuery, pkce, REDIRECT, registerClient } from '../auth/oauth-helpers';

/**
 * The two HTML pages a person reads, in a 1,280 px wide window of a real browser (Debian's chromium,
 * driven by playwright-core): no horizontal scroll (CONVENTIONS §23, issue 28). CHROMIUM sets the
 * browser's path (default /usr/bin/chromium); SCREENSHOTS=dir keeps a screenshot of each page.
 */
/** The page's globals inside page.evaluate (this project compiles without the DOM library). */
declare const document: any;
declare const getComputedStyle: any;

const EXECUTABLE = process.env.CHROMIUM ?? '/usr/bin/chromium';
const WIDTH = 1280;

describe('pages at 1,280 px', () => {
  let t: TestApp;
  let browser: BrowserContext;
  const profile = mkdtempSync(path.join(tmpdir(), 'cp-chromium-'));

  beforeAll(async () => {
    if (!existsSync(EXECUTABLE)) throw new Error(`no browser at ${EXECUTABLE}: apt-get install -y chromium (or set CHROMIUM)`);
    t = await startTestApp();
    // a fresh profile (--user-data-dir) per run
    browser = await chromium.launchPersistentContext(profile, {
      executablePath: EXECUTABLE,
      headless: true,
      viewport: { width: WIDTH, height: 900 },
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    rmSync(profile, { recursive: true, force: true });
  });

  /** Open `url` at 1,280 x 900 and measure the document's widths; keep a screenshot when asked. */
  async function measure(url: string, name: string) {
    const page = await browser.newPage();
    try {
      const res = await page.goto(url);
      expect(res?.status()).toBe(200);
      const widths = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, body: document.body.scrollWidth, client: document.documentElement.clientWidth }));
      if (process.env.SCREENSHOTS) {
        mkdirSync(process.env.SCREENSHOTS, { recursive: true });
        await page.screenshot({ path: path.join(process.env.SCREENSHOTS, `${name}.png`), fullPage: true });
      }
      return { page, widths, html: await page.content() };
    } catch (e) {
      await page.close();
      throw e;
    }
  }

  it('/docs/mcp-tools: every column within the window', async () => {
    const { page, widths } = await measure(`${t.baseUrl}/docs/mcp-tools`, 'mcp-tools');
    try {
      expect(widths.scroll).toBeLessThanOrEqual(WIDTH);
      expect(widths.body).toBeLessThanOrEqual(WIDTH);
      // the table's right edge (its fifth column) is on screen
      const right = await page.evaluate(() => document.querySelector('table')!.getBoundingClientRect().right);
      expect(right).toBeLessThanOrEqual(WIDTH);
    } finally {
      await page.close();
    }
  });

  it('the consent page asking for every scope: within the window, the count shown, grouped by area, no scroll box', async () => {
    const reg = await registerClient(t, { scope: SCOPE_CODENAMES.join(' ') });
    const { challenge } = pkce();
    const url =
      t.baseUrl +
      authorizeQuery({
        response_type: 'code',
        client_id: reg.client_id,
        redirect_uri: REDIRECT,
        code_challenge: challenge,
        code_challenge_method: 'S256',
        scope: SCOPE_CODENAMES.join(' '),
        state: 's',
      });
    const { page, widths } = await measure(url, 'consent-all-scopes');
    try {
      expect(widths.scroll).toBeLessThanOrEqual(WIDTH);
      const text = await page.evaluate(() => document.body.innerText);
      expect(text).toContain(`${SCOPE_CODENAMES.length} permissions in `);
      const groups = await page.$$eval('details', (ds) => ds.map((d: any) => ({ summary: d.querySelector('summary')!.textContent, items: d.querySelectorAll('li').length })));
      expect(groups.length).toBeGreaterThan(5);
      expect(groups.reduce((n, g) => n + g.items, 0)).toBe(SCOPE_CODENAMES.length);
      for (const g of groups) expect(g.summary).toMatch(new RegExp(`\\(${g.items}\\)$`));
      // no element scrolls on its own (the old list was a 14rem scroll box)
      const boxes = await page.evaluate(
        () => [...document.querySelectorAll('*')].filter((e: any) => e.scrollHeight > e.clientHeight + 1 && ['auto', 'scroll'].includes(getComputedStyle(e).overflowY)).length,
      );
      expect(boxes).toBe(0);
    } finally {
      await page.close();
    }
  });

  it('a consent page asking for a few scopes shows them all open', async () => {
    const reg = await registerClient(t, { scope: 'students:read students:write courses:read' });
    const { challenge } = pkce();
    const url =
      t.baseUrl +
      authorizeQuery({
        response_type: 'code',
        client_id: reg.client_id,
        redirect_uri: REDIRECT,
        code_challenge: challenge,
        code_challenge_method: 'S256',
        scope: 'students:read students:write courses:read',
        state: 's',
      });
    const { page, widths } = await measure(url, 'consent-few-scopes');
    try {
      expect(widths.scroll).toBeLessThanOrEqual(WIDTH);
      expect(await page.evaluate(() => document.body.innerText)).toContain('3 permissions in 2 areas');
      expect(await page.$$eval('details', (ds) => ds.every((d) => (d as any).open))).toBe(true);
    } finally {
      await page.close();
    }
  });
});
