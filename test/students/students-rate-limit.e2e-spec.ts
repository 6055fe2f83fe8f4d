import type Redis from 'ioredis';
import { REDIS } from '../../src/core/redis/redis.module';
import { startTestApp, TestApp } from '../support/app';

/** Deactivation and anonymization are limited per client (DESTRUCTIVE_RATE_LIMIT per DESTRUCTIVE_RATE_WINDOW_SECONDS, in Redis). */
describe('/v2/students destructive operations: rate limit', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ DESTRUCTIVE_RATE_LIMIT: 2, DESTRUCTIVE_RATE_WINDOW_SECONDS: 60 });
  });
  afterAll(() => t.close());

  async function students(token: string, n: number): Promise<string[]> {
    const res = await t.post(
      '/v2/students/',
      { data: Array.from({ length: n }, (_, i) => ({ type: 'students', attributes: { email: `rl-${i}-${Math.random().toString(36).slice(2)}@example.test` } })) },
      { token },
    );
    expect(res.status).toBe(200);
    return res.body.data.map((d: any) => d.id);
  }

  it('DELETE: the third call within the window is 429 with Retry-After, and changes nothing', async () => {
    const org = await t.newOrg();
    const token = await t.tokenFor(org);
    const [a, b, c] = await students(token, 3);
    expect((await t.delete(`/v2/students/${a}`, { token })).status).toBe(204);
    expect((await t.delete(`/v2/students/${b}`, { token })).status).toBe(204);
    const res = await t.delete(`/v2/students/${c}`, { token });
    expect(res.status).toBe(429);
    expect(res.body.errors[0].code).toBe('rate_limited');
    const retry = Number(res.headers.get('retry-after'));
    expect(retry).toBeGreaterThan(0);
    expect(retry).toBeLessThanOrEqual(60);
    expect((await t.get(`/v2/students/${c}`, { token })).body.data.attributes.is_inactive).toBe(false);
    // reads are not limited
    expect((await t.get('/v2/students/', { token })).status).toBe(200);
  });

  it('is counted per client: another organization (client) is not affected; the count lives in Redis', async () => {
    const one = await t.newOrg();
    const two = await t.newOrg();
    const t1 = await t.tokenFor(one);
    const t2 = await t.tokenFor(two);
    const mine = await students(t1, 3);
    const theirs = await students(t2, 1);
    await t.delete(`/v2/students/${mine[0]}`, { token: t1 });
    await t.delete(`/v2/students/${mine[1]}`, { token: t1 });
    expect((await t.delete(`/v2/students/${mine[2]}`, { token: t1 })).status).toBe(429);
    expect((await t.delete(`/v2/students/${theirs[0]}`, { token: t2 })).status).toBe(204);
    const redis = t.app.get<Redis>(REDIS);
    const keys = await redis.keys(`${t.config.REDIS_PREFIX}:rl:*`);
    expect(keys.length).toBeGreaterThan(0);
  });

  it('anonymize: the third call within the window is 429 with Retry-After', async () => {
    const org = await t.newOrg();
    const token = await t.tokenFor(org);
    const [a, b, c] = await students(token, 3);
    const headers = { 'X-Confirm-Destructive': 'true' };
    expect((await t.post(`/v2/students/${a}/anonymize/`, undefined, { token, headers })).status).toBe(204);
    expect((await t.post(`/v2/students/${b}/anonymize/`, undefined, { token, headers })).status).toBe(204);
    const res = await t.post(`/v2/students/${c}/anonymize/`, undefined, { token, headers });
    expect(res.status).toBe(429);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    const got = await t.get(`/v2/students/${c}`, { token });
    expect(got.body.data.attributes.email).toMatch(/^rl-/);
  });
});
