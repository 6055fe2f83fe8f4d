import { Writable } from 'node:stream';
import { eventually } from '../support/eventually';
import { startTestApp, TestApp } from '../support/app';

/** LOG_FORMAT=pretty (what `npm run up` picks in a terminal): one human-readable line per request, no JSON. */
describe('pretty request logging', () => {
  let t: TestApp;
  let out = '';
  const sink = new Writable({
    write(chunk, _enc, cb) {
      out += chunk.toString();
      cb();
    },
  });
  beforeAll(async () => {
    t = await startTestApp({ LOG_LEVEL: 'info', LOG_FORMAT: 'pretty' }, { logDestination: sink });
  });
  afterAll(() => t.close());

  it('writes one line per request: time, level, service, method, path, status, duration and request id; never credentials', async () => {
    const org = await t.newOrg();
    const token = await t.tokenFor(org);
    await t.get('/v2/scopes/', { token, headers: { 'x-request-id': 'pretty-1' } });
    await t.get('/v2/no-such-route/', { token, headers: { 'x-request-id': 'pretty-2' } });
    const lines = await eventually(() => {
      const found = out.split('\n').filter((l) => l.includes('[pretty-'));
      expect(found).toHaveLength(2);
      return found;
    });
    expect(lines[0]).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: \(api\) GET \/v2\/scopes\/ 200 \d+ms \[pretty-1\]$/);
    // a refused request's line carries the reason the client got (CONVENTIONS §23)
    expect(lines[1]).toMatch(/ GET \/v2\/no-such-route\/ 404 \d+ms \(Not found\.\) \[pretty-2\]$/);
    for (const l of out.split('\n').filter(Boolean)) expect(() => JSON.parse(l)).toThrow();
    expect(out).not.toContain(token);
    expect(out).not.toContain(org.client_secret);
  });
});
