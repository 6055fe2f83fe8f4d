import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { routeTable, routeTableText } from '../../src/core/routes/route-table';
import { startTestApp, TestApp } from '../support/app';

/**
 * The application's routes, committed (issue 26 point 5): a change to the surface (a route, its
 * handler or the service method a generated handler calls, its interface, scopes, fast path,
 * idempotency, guards and interceptors, status) shows in review as a change of
 * route-table.snapshot.txt. After an intended change: `UPDATE_ROUTE_TABLE=1 npx jest
 * test/platform/route-table` rewrites it.
 */
const SNAPSHOT = join(__dirname, 'route-table.snapshot.txt');

describe('route table', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('is the committed one', () => {
    const text = routeTableText(routeTable(t.app));
    if (process.env.UPDATE_ROUTE_TABLE === '1') writeFileSync(SNAPSHOT, text);
    const committed = readFileSync(SNAPSHOT, 'utf8');
    if (text !== committed) {
      const now = new Set(text.split('\n'));
      const before = new Set(committed.split('\n'));
      const added = [...now].filter((l) => !before.has(l)).map((l) => `+ ${l}`);
      const removed = [...before].filter((l) => !now.has(l)).map((l) => `- ${l}`);
      throw new Error(`The routes differ from test/platform/route-table.snapshot.txt (UPDATE_ROUTE_TABLE=1 to accept):\n${[...removed, ...added].join('\n')}`);
    }
  });

  it('has every route once, and a written or generated handler (with its service method) for each', () => {
    const rows = routeTable(t.app);
    const keys = rows.map((r) => `${r.method} ${r.path}`);
    expect(keys.length).toBe(new Set(keys).size);
    expect(rows.length).toBeGreaterThan(400);
    // generated handlers name the service class and method they call (no string-keyed service)
    const generated = rows.filter((r) => r.calls);
    expect(generated.length).toBeGreaterThan(150);
    for (const r of generated) expect(r.calls).toMatch(/^[A-Z]\w+( \(part\))?\.\w+$/);
    // every authenticated write is idempotent, no read is
    for (const r of rows) {
      if (r.method === 'GET') expect([r.handler, r.idempotent]).toEqual([r.handler, false]);
      else if (r.scopes !== 'public' && ['POST', 'PUT', 'PATCH', 'DELETE'].includes(r.method)) expect([r.handler, r.idempotent]).toEqual([r.handler, true]);
    }
  });
});
