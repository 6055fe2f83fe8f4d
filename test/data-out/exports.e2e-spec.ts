import { parse } from 'csv-parse/sync';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { decodeId } from '../../src/core/ids/ids';
import { startTestApp, TestApp } from '../support/app';
import { orgUuid } from '../support/fixtures';
import { waitFor } from '../support/eventually';
import { fixtures } from '../enrollments/v2-enrollments.helpers';
import { spawnWorker, WorkerProcess } from '../support/worker-process';
import { dropRedisPrefix } from '../support/webhook-receiver';

/**
 * CONVENTIONS §20 exports: POST /v2/exports/ answers 202, the worker (a real `src/worker.ts` process
 * whose V8 heap is capped at 96 MB) streams the rows into a CSV (RFC 4180, UTF-8 with a header row)
 * or NDJSON file; GET shows state, rows done and total and a signed download_url; scopes, isolation,
 * bad input and the clean-up of expired files. 200,000 enrollments go through the capped worker: an
 * export that held its rows in memory would run out of heap and never finish.
 */
// seeding 200,000 rows alone took five minutes on the shared 2-core machine under a load of 30
jest.setTimeout(900_000);

const ROWS = 200_000;

describe('exports', () => {
  let t: TestApp;
  let worker: WorkerProcess;
  const storage = mkdtempSync(path.join(tmpdir(), 'exports-'));

  beforeAll(async () => {
    t = await startTestApp({ STORAGE_DIR: storage });
    worker = spawnWorker(t.config, { STORAGE_DIR: storage, REQUEUE_SWEEP_SECONDS: '1' }, ['--max-old-space-size=96']);
  });
  afterAll(async () => {
    await worker?.kill();
    await t.close();
    await dropRedisPrefix(t.config.REDIS_URL, t.config.REDIS_PREFIX);
    rmSync(storage, { recursive: true, force: true });
  });

  async function finished(id: string, tok: string, timeoutMs = 240_000) {
    return worker.orReport(
      waitFor(
        async () => {
          const res = await t.get(`/v2/exports/${id}`, { token: tok });
          expect(res.status).toBe(200);
          const a = res.body.data.attributes;
          if (a.state === 'FAILED') throw new Error(`export failed: ${a.error}`);
          return a.state === 'SUCCEEDED' && res.body.data;
        },
        { timeoutMs, intervalMs: 200, what: 'the export to finish' },
      ) as Promise<any>,
    );
  }

  async function download(url: string): Promise<{ status: number; body: Buffer; type: string | null }> {
    const res = await fetch(url);
    return { status: res.status, body: Buffer.from(await res.arrayBuffer()), type: res.headers.get('content-type') };
  }

  it(`streams ${ROWS.toLocaleString('en')} enrollments to CSV through a worker whose heap is capped at 96 MB`, async () => {
    const o = await t.newOrg();
    const tok = await t.tokenFor(o);
    const g = fixtures(t, o, tok);
    const c = await g.course();
    const m = await g.member();
    const first = await g.enroll(c.publishedCourseId, m.email);
    // volume: users and enrollments in bulk (through the services this would take hours)
    const org = orgUuid(o);
    await t.ds.query(
      `WITH u AS (INSERT INTO users (organization_id, email, first_name, last_name) SELECT $1, 'bulk-' || g || '@example.test', 'B', 'U' FROM generate_series(1, $2::int) g RETURNING id)
       INSERT INTO enrollments (organization_id, user_id, published_course_id, course_id) SELECT $1, u.id, $3, $4 FROM u`,
      [org, ROWS - 1, decodeId('publishedCourse', c.publishedCourseId), decodeId('course', c.courseId)],
    );
    await t.ownerQuery('ANALYZE enrollments');

    const created = await t.post('/v2/exports/', { resource: 'enrollments', format: 'csv' }, { token: tok });
    expect(created.status).toBe(202);
    expect(created.body.data).toMatchObject({ type: 'exports', attributes: { resource: 'enrollments', format: 'csv', state: 'QUEUED', rows_done: 0, download_url: null } });
    const seen = new Set<string>();
    const done = await worker.orReport(
      waitFor(
        async () => {
          const a = (await t.get(`/v2/exports/${created.body.data.id}`, { token: tok })).body.data;
          seen.add(a.attributes.state);
          if (a.attributes.state === 'RUNNING' && a.attributes.rows_total !== null) {
            expect(a.attributes.rows_total).toBe(ROWS);
            expect(a.attributes.rows_done).toBeLessThanOrEqual(ROWS);
          }
          if (a.attributes.state === 'FAILED') throw new Error(a.attributes.error);
          return a.attributes.state === 'SUCCEEDED' && a;
        },
        { timeoutMs: 240_000, intervalMs: 100, what: 'the export to finish' },
      ) as Promise<any>,
    );
    expect(done.attributes).toMatchObject({ rows_done: ROWS, rows_total: ROWS, state: 'SUCCEEDED' });
    expect(done.attributes.download_url).toMatch(/\/files\/exports\/.+\.csv\?expires=\d+&signature=/);
    expect(worker.child.exitCode).toBeNull(); // still alive: it never ran out of heap

    const file = await download(done.attributes.download_url);
    expect(file.status).toBe(200);
    expect(file.type).toMatch(/^text\/csv/);
    expect(file.body.length).toBe(done.attributes.file_size);
    expect(file.body.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf])); // UTF-8 BOM
    const records: string[][] = parse(file.body, { bom: true });
    expect(records[0]).toEqual(['id', 'user_id', 'course_id', 'published_course_id', 'active', 'enrolled_at', 'started_at', 'completed_at', 'expires_at', 'created_at', 'updated_at']);
    expect(records.length).toBe(ROWS + 1);
    expect(new Set(records.slice(1).map((r) => r[0])).size).toBe(ROWS);
    const firstRow = records.find((r) => r[0] === first)!;
    expect(firstRow).toEqual([first, m.id, c.courseId, c.publishedCourseId, 'true', expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/), '', '', '', expect.any(String), expect.any(String)]);
    expect(file.body.includes('\r\n')).toBe(true);

    // a tampered or foreign download link is refused
    expect((await download(done.attributes.download_url.replace(/signature=./, 'signature=0'))).status).toBe(403);
  });

  it('CSV quoting and NDJSON, updated_since, isolation, scopes, bad input and the clean-up of expired files', async () => {
    const o = await t.newOrg();
    const other = await t.newOrg();
    const tok = await t.tokenFor(o);
    const g = fixtures(t, o, tok);
    const tricky = 'Zoë "Z", Jr.\nsecond line';
    const res = await t.post('/v2/students/', { data: [{ type: 'students', attributes: { email: 'tricky@example.test', first_name: tricky, last_name: '中文, =1+1' } }] }, { token: tok });
    expect(res.status).toBe(200);
    const sid = res.body.data[0].id;
    await g.student();

    const csv = await t.post('/v2/exports/', { resource: 'users', format: 'csv' }, { token: tok });
    const ndjson = await t.post(
      '/v2/exports/',
      { data: { type: 'exports', attributes: { resource: 'users', format: 'ndjson', filter: { updated_since: '2000-01-01T00:00:00+02:00' } } } },
      { token: tok },
    );
    expect(csv.status).toBe(202);
    expect(ndjson.status).toBe(202);
    const [c, n] = [await finished(csv.body.data.id, tok), await finished(ndjson.body.data.id, tok)];
    const rows: Record<string, string>[] = parse((await download(c.attributes.download_url)).body, { bom: true, columns: true });
    expect(rows).toHaveLength(2);
    expect(rows.find((r) => r.id === sid)).toMatchObject({ email: 'tricky@example.test', first_name: tricky, last_name: '中文, =1+1', is_active: 'true', deactivated_at: '' });
    const nd = await download(n.attributes.download_url);
    expect(nd.type).toMatch(/^application\/x-ndjson/);
    const lines = nd.body
      .toString('utf8')
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines).toHaveLength(2);
    expect(lines.find((l) => l.id === sid)).toMatchObject({ first_name: tricky, is_active: true, deactivated_at: null });
    expect(n.attributes.filter).toEqual({ updated_since: '1999-12-31T22:00:00.000Z' });
    // updated_since: only what changed since
    const later = new Date().toISOString();
    await new Promise((r) => setTimeout(r, 5));
    expect((await t.patch('/v2/students/', { data: [{ type: 'students', id: sid, attributes: { last_name: 'Changed' } }] }, { token: tok })).status).toBe(200);
    const delta = await finished((await t.post('/v2/exports/', { resource: 'users', format: 'ndjson', filter: { updated_since: later } }, { token: tok })).body.data.id, tok);
    expect(delta.attributes.rows_total).toBe(1);
    expect(JSON.parse((await download(delta.attributes.download_url)).body.toString('utf8'))).toMatchObject({ id: sid, last_name: 'Changed' });

    // the list, and isolation
    const list = await t.get('/v2/exports/?page[size]=2', { token: tok });
    expect(list.status).toBe(200);
    expect(list.body.data.map((d: any) => d.id)).toEqual([csv.body.data.id, ndjson.body.data.id]);
    const otherTok = await t.tokenFor(other);
    expect((await t.get(`/v2/exports/${csv.body.data.id}`, { token: otherTok })).status).toBe(404);
    expect((await t.get('/v2/exports/', { token: otherTok })).body.data).toEqual([]);
    const theirs = await finished((await t.post('/v2/exports/', { resource: 'users', format: 'csv' }, { token: otherTok })).body.data.id, otherTok);
    expect(theirs.attributes.rows_total).toBe(0);
    expect(parse((await download(theirs.attributes.download_url)).body, { bom: true })).toEqual([
      ['id', 'email', 'first_name', 'last_name', 'external_id', 'is_active', 'deactivated_at', 'created_at', 'updated_at'],
    ]);

    // scopes
    expect((await t.post('/v2/exports/', { resource: 'users' }, { token: await t.tokenFor(o, ['data-export:read']) })).status).toBe(403);
    expect((await t.get('/v2/exports/', { token: await t.tokenFor(o, ['students:read']) })).status).toBe(403);
    expect((await t.get(`/v2/exports/${csv.body.data.id}`, { token: await t.tokenFor(o, ['data-export:read']) })).status).toBe(200);

    // bad input: 422 naming the member, nothing created
    const before = (await t.ds.query(`SELECT count(*)::int AS n FROM data_exports WHERE organization_id = $1`, [orgUuid(o)]))[0].n;
    for (const [body, pointer] of [
      [{ format: 'csv' }, '/resource'],
      [{ resource: 'nope' }, '/resource'],
      [{ resource: 'xapi-statements', filter: { updated_since: '2026-01-01T00:00:00Z' } }, '/filter/updated_since'],
      [{ resource: 'users', format: 'xml' }, '/format'],
      [{ resource: 'users', filter: { colour: 'red' } }, '/filter/colour'],
      [{ resource: 'users', filter: { updated_since: 'yesterday' } }, '/filter/updated_since'],
      [{ resource: 'certificates', filter: { updated_since: '2026-01-01T00:00:00Z' } }, '/filter/updated_since'],
      [{ resource: 'users', filter: [] }, '/filter'],
    ] as const) {
      const bad = await t.post('/v2/exports/', body, { token: tok });
      expect({ body, status: bad.status, pointer: bad.body.errors?.[0]?.source?.pointer }).toEqual({ body, status: 422, pointer });
    }
    expect((await t.post('/v2/exports/', [1], { token: tok })).status).toBe(422);
    expect((await t.get('/v2/exports/dexnope', { token: tok })).status).toBe(404);
    expect((await t.ds.query(`SELECT count(*)::int AS n FROM data_exports WHERE organization_id = $1`, [orgUuid(o)]))[0].n).toBe(before);

    // expiry: the sweeper deletes the file; the link stops working and the export says EXPIRED
    const url = c.attributes.download_url;
    expect((await download(url)).status).toBe(200);
    await t.ds.query(`UPDATE data_exports SET expires_at = now() - interval '1 second' WHERE id = $1 AND organization_id = $2`, [decodeId('dataExport', c.id), orgUuid(o)]);
    const expired = await worker.orReport(
      waitFor(
        async () => {
          const a = (await t.get(`/v2/exports/${c.id}`, { token: tok })).body.data.attributes;
          return a.state === 'EXPIRED' && a;
        },
        { timeoutMs: 30_000, intervalMs: 200, what: 'the sweeper to expire the export' },
      ) as Promise<any>,
    );
    expect(expired.download_url).toBeNull();
    expect((await download(url)).status).toBe(404);
    expect((await download(n.attributes.download_url)).status).toBe(200); // the others stay
  });
});
