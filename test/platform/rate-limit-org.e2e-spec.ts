import { Writable } from 'node:stream';
import type { CreatedOrg } from '../../src/modules/organizations/organizations.service';
import { startTestApp, TestApp } from '../support/app';
import { PrivateRedis } from '../support/redis-server';

/**
 * Rate-limited operations (deactivate, anonymize) count per client AND per organization
 * (DESTRUCTIVE_RATE_LIMIT, DESTRUCTIVE_ORG_RATE_LIMIT), answer with the IETF RateLimit-Policy and
 * RateLimit fields (draft-ietf-httpapi-ratelimit-headers-10/-11 structured-field syntax), and keep
 * limiting — in process — while Redis is unreachable.
 */
jest.setTimeout(60_000);

async function students(t: TestApp, token: string, n: number): Promise<string[]> {
  const res = await t.post(
    '/v2/students/',
    { data: Array.from({ length: n }, (_, i) => ({ type: 'students', attributes: { email: `rlo-${i}-${Math.random().toString(36).slice(2)}@example.test` } })) },
    { token },
  );
  expect(res.status).toBe(200);
  return res.body.data.map((d: any) => d.id);
}

/** A second client of the organization, holding every scope, and a token for it. */
async function secondClient(t: TestApp, adminToken: string): Promise<string> {
  const res = await t.post('/v2/clients/', { name: `second-${Math.random().toString(36).slice(2)}`, scope_preset: 'full-access' }, { token: adminToken });
  expect(res.status).toBe(201);
  const a = res.body.data.attributes;
  const tok = await t.post('/v2/auth/token', { grant_type: 'client_credentials', client_id: a.client_id, client_secret: a.client_secret });
  expect(tok.status).toBe(200);
  return tok.body.access_token;
}

/** `"name";a=1;b=2, "other";...` -> { name: { a: 1, b: 2 }, ... } */
function parseList(value: string | null): Record<string, Record<string, number>> {
  const out: Record<string, Record<string, number>> = {};
  for (const item of (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const [name, ...params] = item.split(';');
    expect(name).toMatch(/^"[a-z]+"$/);
    out[name.slice(1, -1)] = Object.fromEntries(params.map((p) => p.split('=')).map(([k, v]) => [k, Number(v)]));
  }
  return out;
}

describe('rate limits per client and per organization, with IETF RateLimit headers', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ DESTRUCTIVE_RATE_LIMIT: 3, DESTRUCTIVE_ORG_RATE_LIMIT: 4, DESTRUCTIVE_RATE_WINDOW_SECONDS: 60 });
  });
  afterAll(() => t.close());

  it('two clients of one organization share its budget; another organization is not affected; headers count down', async () => {
    const org = await t.newOrg();
    const a = await t.tokenFor(org);
    const b = await secondClient(t, a);
    const ids = await students(t, a, 5);

    const seen: Record<string, Record<string, number>>[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await t.delete(`/v2/students/${ids[i]}`, { token: a });
      expect(res.status).toBe(204);
      expect(parseList(res.headers.get('ratelimit-policy'))).toEqual({ client: { q: 3, w: 60 }, organization: { q: 4, w: 60 } });
      const rl = parseList(res.headers.get('ratelimit'));
      expect(rl.client.t).toBeGreaterThan(0);
      expect(rl.client.t).toBeLessThanOrEqual(60);
      seen.push(rl);
    }
    expect(seen.map((s) => s.client.r)).toEqual([2, 1, 0]);
    expect(seen.map((s) => s.organization.r)).toEqual([3, 2, 1]);

    // client A is spent; its refused call does not spend the organization's budget
    const refusedA = await t.delete(`/v2/students/${ids[3]}`, { token: a });
    expect(refusedA.status).toBe(429);
    expect(parseList(refusedA.headers.get('ratelimit')).client.r).toBe(0);

    // client B has its own client budget (3) but only one call of the organization's (4) is left
    const first = await t.delete(`/v2/students/${ids[3]}`, { token: b });
    expect(first.status).toBe(204);
    expect(parseList(first.headers.get('ratelimit'))).toEqual({ client: { r: 2, t: expect.any(Number) }, organization: { r: 0, t: expect.any(Number) } });
    const second = await t.delete(`/v2/students/${ids[4]}`, { token: b });
    expect(second.status).toBe(429);
    expect(second.body.errors[0].code).toBe('rate_limited');
    expect(Number(second.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(parseList(second.headers.get('ratelimit-policy')).organization).toEqual({ q: 4, w: 60 });
    expect(parseList(second.headers.get('ratelimit')).organization.r).toBe(0);
    expect(second.headers.get('ratelimit-limit')).toBe('4');
    expect(second.headers.get('ratelimit-remaining')).toBe('0');
    expect(Number(second.headers.get('ratelimit-reset'))).toBeGreaterThan(0);
    expect((await t.get(`/v2/students/${ids[4]}`, { token: b })).body.data.attributes.is_inactive).toBe(false);

    // another organization is not affected
    const other: CreatedOrg = await t.newOrg();
    const o = await t.tokenFor(other);
    const [theirs] = await students(t, o, 1);
    const res = await t.delete(`/v2/students/${theirs}`, { token: o });
    expect(res.status).toBe(204);
    expect(parseList(res.headers.get('ratelimit')).organization.r).toBe(3);
  });

  it('/v1 and /v2 anonymize share one budget, and the /v1 API key counts toward the organization', async () => {
    const org = await t.newOrg();
    const a = await t.tokenFor(org);
    const ids = await students(t, a, 5);
    const confirm = { 'X-Confirm-Destructive': 'true' };
    expect((await t.post(`/v2/students/${ids[0]}/anonymize`, undefined, { token: a, headers: confirm })).status).toBe(204);
    expect((await t.post(`/v1/users/${ids[1]}/anonymize`, undefined, { token: a })).status).toBe(200);
    const third = await t.post(`/v1/users/${ids[2]}/anonymize`, undefined, { basic: org.api_key });
    expect(third.status).toBe(200);
    expect(parseList(third.headers.get('ratelimit'))).toEqual({ client: { r: 2, t: expect.any(Number) }, organization: { r: 1, t: expect.any(Number) } });
    expect((await t.post(`/v1/users/${ids[3]}/anonymize`, undefined, { basic: org.api_key })).status).toBe(200);
    const over = await t.post(`/v1/users/${ids[4]}/anonymize`, undefined, { basic: org.api_key });
    expect(over.status).toBe(429);
    expect(over.body).toEqual({ detail: expect.any(String) });
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(over.headers.get('ratelimit-policy')).toContain('"organization";q=4;w=60');
  });
});

describe('rate limits while Redis is unreachable', () => {
  let redis: PrivateRedis;
  let t: TestApp;
  const logs: string[] = [];
  beforeAll(async () => {
    redis = await PrivateRedis.start();
    const sink = new Writable({
      write(chunk, _enc, cb) {
        logs.push(chunk.toString());
        cb();
      },
    });
    t = await startTestApp({ REDIS_URL: redis.url, LOG_LEVEL: 'info', DESTRUCTIVE_RATE_LIMIT: 2, DESTRUCTIVE_ORG_RATE_LIMIT: 10, DESTRUCTIVE_RATE_WINDOW_SECONDS: 60 }, { logDestination: sink });
  });
  afterAll(async () => {
    await redis.start(); // the app closes its queues against a running server
    await t?.close();
    await redis.stop();
  });

  it('counts in process with the same limits, answers at once, logs the outage once and no secrets', async () => {
    const org = await t.newOrg();
    const token = await t.tokenFor(org);
    const ids = await students(t, token, 4);
    await redis.stop();

    const timed = async (id: string) => {
      const started = Date.now();
      const res = await t.delete(`/v2/students/${id}`, { token });
      return { res, ms: Date.now() - started };
    };
    const one = await timed(ids[0]);
    const two = await timed(ids[1]);
    const three = await timed(ids[2]);
    expect([one.res.status, two.res.status, three.res.status]).toEqual([204, 204, 429]);
    expect(parseList(two.res.headers.get('ratelimit')).client.r).toBe(0);
    expect(Number(three.res.headers.get('retry-after'))).toBeGreaterThan(0);
    for (const x of [one, two, three]) expect(x.ms).toBeLessThan(3000);
    expect((await t.get(`/v2/students/${ids[2]}`, { token })).body.data.attributes.is_inactive).toBe(false);

    const outage = logs.filter((l) => l.includes('rate limit store unavailable'));
    expect(outage).toHaveLength(1);
    expect(outage[0]).not.toContain(token);
    expect(outage[0]).not.toContain(org.client_id);
  });
});
