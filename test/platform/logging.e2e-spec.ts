import { Writable } from 'node:stream';
import { startTestApp, TestApp } from '../support/app';
import { eventually, waitFor } from '../support/eventually';

/** Structured JSON logs: a request line per request and the request id on every line logged while serving it. */
describe('request logging', () => {
  let t: TestApp;
  const lines: any[] = [];
  const sink = new Writable({
    write(chunk, _enc, cb) {
      for (const l of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(l));
      cb();
    },
  });
  beforeAll(async () => {
    t = await startTestApp({ LOG_LEVEL: 'debug' }, { logDestination: sink });
  });
  afterAll(() => t.close());

  it('writes one JSON line per request with its request id, status and duration; never the credentials', async () => {
    const org = await t.newOrg();
    const token = await t.tokenFor(org);
    await t.get('/v2/scopes/', { token, headers: { 'x-request-id': 'trace-get-1' } });
    const line = await waitFor(() => lines.find((l) => l.request_id === 'trace-get-1' && l.msg === 'request completed'), { what: 'the request line' });
    expect(line).toMatchObject({ service: 'api', level: 30, method: 'GET', url: '/v2/scopes/', status: 200, ms: expect.any(Number) });
    expect(JSON.stringify(lines)).not.toContain(token);
    expect(JSON.stringify(lines)).not.toContain(org.client_secret);
  });

  it('lines logged by the code serving a request (a POST with a body) carry its request id', async () => {
    const org = await t.newOrg();
    const token = await t.tokenFor(org);
    const res = await t.post('/v2/students/', { data: [{ type: 'students', attributes: { email: 'log@example.com' } }] }, { token, headers: { 'x-request-id': 'trace-post-1' } });
    expect(res.status).toBe(200);
    await eventually(() => expect(lines.find((l) => l.msg === 'batch processed' && l.request_id === 'trace-post-1')).toMatchObject({ total: 1, failed: 0 }));
    // and a concurrent request's lines never carry another request's id
    await Promise.all(
      ['a', 'b', 'c'].map((k) =>
        t.post(
          '/v2/students/',
          {
            data: [
              { type: 'students', attributes: { email: `c-${k}@example.com` } },
              { type: 'students', attributes: { email: 'bad' } },
            ],
          },
          { token, headers: { 'x-request-id': `trace-c-${k}` } },
        ),
      ),
    );
    for (const k of ['a', 'b', 'c']) {
      const mine = await eventually(() => {
        const found = lines.filter((l) => l.request_id === `trace-c-${k}`);
        expect(found.map((l) => l.msg)).toEqual(expect.arrayContaining(['batch processed', 'request completed']));
        return found;
      });
      expect(mine.find((l) => l.msg === 'batch processed')).toMatchObject({ total: 2, failed: 1 });
    }
  });

  it('does not log a line for /health', async () => {
    await t.get('/health', { headers: { 'x-request-id': 'trace-health' } });
    // a request made after it is logged: by then a line for /health would have been written too
    await t.get('/v2/no-such-route/', { headers: { 'x-request-id': 'trace-after-health' } });
    // a 404: a refused request's line (with its reason)
    await waitFor(() => lines.find((l) => l.request_id === 'trace-after-health' && l.msg === 'request refused'), { what: 'the later request line' });
    expect(lines.filter((l) => l.request_id === 'trace-health' && l.status !== undefined)).toEqual([]);
  });
});
