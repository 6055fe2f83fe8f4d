import type { IncomingMessage } from 'node:http';
import { randomBytes } from 'node:crypto';
import { Metrics } from '../../src/core/metrics/metrics';
import { startTestApp, TestApp } from '../support/app';
import { waitFor } from '../support/eventually';
import { journey } from '../support/learner-journey';
import { startReceiver } from '../support/webhook-receiver';
import { freePort } from '../support/redis-server';
import { spawnWorker, WorkerProcess } from '../support/worker-process';
// eslint-disable-next-line @typescript-eslint/no-var-requires
const parsePrometheusTextFormat: (text: string) => Family[] = require('parse-prometheus-text-format');

interface Family {
  name: string;
  help: string;
  type: string;
  metrics: Array<{ value?: string; labels?: Record<string, string>; buckets?: Record<string, string>; count?: string; sum?: string }>;
}

/** GET /metrics parsed by a Prometheus text-format parser: the families by name. */
async function scrape(url: string, token?: string): Promise<Map<string, Family>> {
  const res = await fetch(url, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  const families = parsePrometheusTextFormat(await res.text());
  return new Map(families.map((f) => [f.name, f]));
}

const sample = (f: Family | undefined, labels: Record<string, string>) => f?.metrics.find((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v));

/** The families every process serves (CONVENTIONS §23). */
const COMMON = [
  'queue_jobs',
  'outbox_pending_events',
  'outbox_lag_seconds',
  'db_pool_connections',
  'db_pool_max',
  'webhook_delivery_attempts_total',
  'nodejs_eventloop_lag_p99_seconds',
  'nodejs_eventloop_lag_seconds',
];

describe('GET /metrics (CONVENTIONS §23, issue 28)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ ALLOW_PRIVATE_URLS: true });
  });
  afterAll(() => t.close());

  it('the API: Prometheus text a parser reads, whose request counters and latency histograms move under load, per route pattern and status', async () => {
    const org = await t.newOrg();
    const token = await t.tokenFor(org);
    const before = await scrape(`${t.baseUrl}/metrics`);
    for (const name of [...COMMON, 'http_requests_total', 'http_request_duration_seconds']) expect(before.has(name)).toBe(true);
    expect(before.get('http_requests_total')!.type).toBe('COUNTER');
    expect(before.get('http_request_duration_seconds')!.type).toBe('HISTOGRAM');
    const listed = (m: Map<string, Family>) => Number(sample(m.get('http_requests_total'), { method: 'GET', route: '/v2/students', status: '200' })?.value ?? 0);
    const refused = (m: Map<string, Family>) => Number(sample(m.get('http_requests_total'), { method: 'GET', route: '/v2/students/:id', status: '404' })?.value ?? 0);

    // some load: 30 lists and 10 reads of an unknown student, concurrently
    await Promise.all([...Array.from({ length: 30 }, () => t.get('/v2/students', { token })), ...Array.from({ length: 10 }, () => t.get('/v2/students/nosuchstudent', { token }))]);
    const after = await scrape(`${t.baseUrl}/metrics`);
    expect(listed(after) - listed(before)).toBe(30);
    expect(refused(after) - refused(before)).toBe(10);
    // the histogram (the parser keeps a labelled histogram's buckets but drops its labels, count and
    // sum, so those are read from the exposition's own lines)
    const hist = after.get('http_request_duration_seconds')!;
    expect(Object.keys(hist.metrics[0].buckets!).sort()).toEqual(['0.005', '0.01', '0.025', '0.05', '0.1', '0.25', '0.5', '1', '2.5', '5', '10', '+Inf'].sort());
    const text = await (await fetch(`${t.baseUrl}/metrics`)).text();
    const line = (suffix: string, extra = '') =>
      Number(new RegExp(`^http_request_duration_seconds_${suffix}\\{${extra}method="GET",route="/v2/students",status="200"\\} (\\S+)$`, 'm').exec(text)?.[1]);
    expect(line('count')).toBeGreaterThanOrEqual(30);
    expect(line('sum')).toBeGreaterThan(0);
    expect(line('bucket', 'le="\\+Inf",')).toBe(line('count'));
    // the concrete path never becomes a label
    expect(after.get('http_requests_total')!.metrics.some((m) => m.labels?.route?.includes('nosuchstudent'))).toBe(false);
    // queues, outbox, pool, event loop
    expect(sample(after.get('queue_jobs'), { queue: 'webhook-delivery', state: 'waiting' })).toBeDefined();
    expect(Number(after.get('outbox_lag_seconds')!.metrics[0].value)).toBeGreaterThanOrEqual(0);
    expect(Number(sample(after.get('db_pool_connections'), { state: 'total' })!.value)).toBeGreaterThan(0);
    expect(Number(after.get('db_pool_max')!.metrics[0].value)).toBe(t.config.DATABASE_POOL_SIZE);
    expect(Number(after.get('nodejs_eventloop_lag_p99_seconds')!.metrics[0].value)).toBeGreaterThan(0);
  });

  it('GET / answers a small JSON index whose links work', async () => {
    const res = await t.get('/');
    expect(res.status).toBe(200);
    const pkg = require('../../package.json');
    expect(res.body).toEqual({ name: pkg.name, version: pkg.version, links: { docs: '/docs', openapi: '/openapi.json', health: '/health', mcp_tools: '/docs/mcp-tools' } });
    for (const link of Object.values(res.body.links) as string[]) expect((await t.get(link)).status).toBe(200);
  });

  it('outbox lag: pending events count and the age of the oldest', async () => {
    const org = await t.newOrg();
    // a write that records an event (an enrollment) while nothing relays it (no worker here)
    const j = journey(t, org);
    const course = await j.course([{}]);
    await j.enroll((await j.learner()).id, course.publishedCourseId);
    const m = await waitFor(
      async () => {
        const s = await scrape(`${t.baseUrl}/metrics`);
        return Number(s.get('outbox_pending_events')!.metrics[0].value) > 0 ? s : null;
      },
      { what: 'a pending outbox event' },
    );
    expect(Number(m.get('outbox_lag_seconds')!.metrics[0].value)).toBeGreaterThanOrEqual(0);
  });

  it('with METRICS_TOKEN set: only its bearer reads; without: loopback clients only', async () => {
    const secret = `metrics-${randomBytes(12).toString('hex')}`;
    const guarded = await startTestApp({ METRICS_TOKEN: secret });
    try {
      expect((await fetch(`${guarded.baseUrl}/metrics`)).status).toBe(401);
      expect((await fetch(`${guarded.baseUrl}/metrics`, { headers: { authorization: 'Bearer wrong-token-of-some-length' } })).status).toBe(401);
      expect((await scrape(`${guarded.baseUrl}/metrics`, secret)).has('http_requests_total')).toBe(true);
    } finally {
      await guarded.close();
    }
    // the loopback rule, on the socket's own address (X-Forwarded-For is never read)
    const metrics = t.app.get(Metrics);
    const req = (remoteAddress: string, headers: Record<string, string> = {}) => ({ headers, socket: { remoteAddress } }) as unknown as IncomingMessage;
    expect(metrics.allowed(req('127.0.0.1'))).toBe('ok');
    expect(metrics.allowed(req('::1'))).toBe('ok');
    expect(metrics.allowed(req('10.1.2.3', { 'x-forwarded-for': '127.0.0.1' }))).toBe('forbidden');
  });

  it('the worker serves the same on METRICS_PORT (its webhook delivery outcomes moving as it delivers), and answers anything else 404', async () => {
    const port = await freePort();
    const worker: WorkerProcess = spawnWorker(t.config, { APP_DATABASE_URL: t.config.APP_DATABASE_URL, METRICS_PORT: String(port), METRICS_HOST: '127.0.0.1' });
    try {
      const url = `http://127.0.0.1:${port}/metrics`;
      const first = await worker.orReport(
        waitFor(
          async () => {
            try {
              return await scrape(url);
            } catch {
              return null;
            }
          },
          { what: 'the worker metrics port', timeoutMs: 60_000, intervalMs: 200 },
        ),
      );
      for (const name of COMMON) expect(first.has(name)).toBe(true);
      expect(first.has('http_requests_total')).toBe(true); // declared, no samples: the worker serves no HTTP API
      // the worker relays the outbox: the student's event above is relayed, the pending count falls to 0
      await worker.orReport(waitFor(async () => Number((await scrape(url)).get('outbox_pending_events')!.metrics[0].value) === 0, { what: 'the outbox relayed', timeoutMs: 30_000 }));
      expect((await fetch(`http://127.0.0.1:${port}/other`)).status).toBe(404);

      // webhook delivery outcomes move as the worker delivers: 3 enrollments to a receiver that answers 200
      const attempts = (m: Map<string, Family>) => Number(sample(m.get('webhook_delivery_attempts_total'), { outcome: 'success', result: 'SUCCEEDED' })?.value ?? 0);
      const before = attempts(await scrape(url));
      const r = await startReceiver();
      try {
        const org = await t.newOrg();
        expect((await t.post('/v1/webhooks', { target_url: r.url, events: ['COURSE_ENROLLMENT'] }, { basic: org.api_key })).status).toBe(201);
        const j = journey(t, org);
        const course = await j.course([{}]);
        for (let i = 0; i < 3; i++) await j.enroll((await j.learner()).id, course.publishedCourseId);
        await worker.orReport(r.waitFor(3, 30_000));
        await worker.orReport(waitFor(async () => attempts(await scrape(url)) - before >= 3, { what: 'three successful attempts counted', timeoutMs: 15_000 }));
      } finally {
        await r.close();
      }
    } finally {
      await worker.kill();
    }
  }, 90_000);
});
