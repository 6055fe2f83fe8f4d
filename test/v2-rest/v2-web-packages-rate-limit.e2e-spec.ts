import type { CreatedOrg } from '../../src/modules/organizations/organizations.service';
import { answer, mcpClient } from '../mcp/mcp-support';
import { startTestApp, TestApp } from '../support/app';

/**
 * POST /v2/web-packages/ is "rate limited more tightly than a plain row-writing batch endpoint"
 * (published description: every accepted item queues an outbound fetch): WEB_PACKAGE_CREATE_RATE_LIMIT
 * calls per window per client AND WEB_PACKAGE_CREATE_ORG_RATE_LIMIT per organization (all its
 * clients), counted in Redis, with the IETF RateLimit-Policy / RateLimit fields (CONVENTIONS §14)
 * and 429 + Retry-After in the /v2 envelope; a refused call creates nothing. Other web-package
 * operations are not limited.
 */
jest.setTimeout(60_000);

const body = (title: string, n = 1) => ({ data: Array.from({ length: n }, (_, i) => ({ type: 'web-packages', attributes: { content_url: `http://127.0.0.1:9/${title}-${i}.zip`, title } })) });

/** `"name";a=1;b=2, "other";...` -> { name: { a: 1, b: 2 }, ... } */
function parseList(value: string | null): Record<string, Record<string, number>> {
  const out: Record<string, Record<string, number>> = {};
  for (const item of (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const [name, ...params] = item.split(';');
    out[name.replace(/"/g, '')] = Object.fromEntries(params.map((p) => p.split('=')).map(([k, v]) => [k, Number(v)]));
  }
  return out;
}

describe('/v2/web-packages create: its own rate limit per client and per organization', () => {
  let t: TestApp;
  /** the organization's web packages, through the API */
  const packages = async (org: CreatedOrg) => {
    const res = await t.get('/v2/web-packages/?page[size]=100', { token: await t.tokenFor(org, ['web-packages:read']) });
    expect(res.status).toBe(200);
    return res.body.data.length as number;
  };
  /** a second client of the organization with every scope, and a token for it */
  const secondClientToken = async (adminToken: string) => {
    const res = await t.post('/v2/clients/', { name: `wp-${Math.random().toString(36).slice(2)}`, scope_preset: 'full-access' }, { token: adminToken });
    expect(res.status).toBe(201);
    const a = res.body.data.attributes;
    const tok = await t.post('/v2/auth/token', { grant_type: 'client_credentials', client_id: a.client_id, client_secret: a.client_secret });
    return tok.body.access_token as string;
  };

  beforeAll(async () => {
    t = await startTestApp({ ALLOW_PRIVATE_URLS: true, WEB_PACKAGE_CREATE_RATE_LIMIT: 3, WEB_PACKAGE_CREATE_ORG_RATE_LIMIT: 4, WEB_PACKAGE_CREATE_RATE_WINDOW_SECONDS: 60 });
  });
  afterAll(() => t.close());

  it('counts down per client and organization, then 429 with Retry-After in the /v2 envelope, creating nothing', async () => {
    const org = await t.newOrg();
    const token = await t.tokenFor(org);
    const seen: Record<string, Record<string, number>>[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await t.post('/v2/web-packages/', body(`a${i}`, 2), { token });
      expect(res.status).toBe(200);
      expect(parseList(res.headers.get('ratelimit-policy'))).toEqual({ client: { q: 3, w: 60 }, organization: { q: 4, w: 60 } });
      seen.push(parseList(res.headers.get('ratelimit')));
    }
    expect(seen.map((s) => [s.client.r, s.organization.r])).toEqual([
      [2, 3],
      [1, 2],
      [0, 1],
    ]);
    expect(await packages(org)).toBe(6);

    const refused = await t.post('/v2/web-packages/', body('refused'), { token });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('content-type')).toMatch(/^application\/vnd\.api\+json/);
    expect(refused.body.errors[0]).toMatchObject({ status: '429', code: 'rate_limited' });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    expect(refused.headers.get('ratelimit-remaining')).toBe('0');
    expect(parseList(refused.headers.get('ratelimit')).client.r).toBe(0);
    expect(await packages(org)).toBe(6);

    // a second client of the organization: the organization's budget (4) has one call left
    const other = await secondClientToken(token);
    const last = await t.post('/v2/web-packages/', body('b0'), { token: other });
    expect(last.status).toBe(200);
    expect(parseList(last.headers.get('ratelimit'))).toMatchObject({ client: { r: 2 }, organization: { r: 0 } });
    const orgSpent = await t.post('/v2/web-packages/', body('b1'), { token: other });
    expect(orgSpent.status).toBe(429);
    expect(parseList(orgSpent.headers.get('ratelimit-policy'))).toHaveProperty('organization');
    expect(await packages(org)).toBe(7);

    // another organization has its own budget
    const otherOrg = await t.newOrg();
    const fresh = await t.post('/v2/web-packages/', body('c0'), { token: await t.tokenFor(otherOrg) });
    expect(fresh.status).toBe(200);
    expect(parseList(fresh.headers.get('ratelimit'))).toMatchObject({ client: { r: 2 }, organization: { r: 3 } });
  });

  it('the other web-package operations are not limited by it', async () => {
    const org = await t.newOrg();
    const token = await t.tokenFor(org);
    const created = await t.post('/v2/web-packages/', body('x'), { token });
    const id = created.body.data[0].id;
    for (let i = 0; i < 5; i++) {
      const list = await t.get('/v2/web-packages/', { token });
      expect(list.status).toBe(200);
      expect(list.headers.get('ratelimit')).toBeNull();
      const patch = await t.patch('/v2/web-packages/', { data: [{ type: 'web-packages', id, attributes: { title: `T${i}` } }] }, { token });
      expect(patch.status).toBe(200);
      expect(patch.headers.get('ratelimit')).toBeNull();
    }
  });

  it('parallel creates of one client: exactly the limit accepted', async () => {
    const org = await t.newOrg();
    const token = await t.tokenFor(org);
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => t.post('/v2/web-packages/', body(`p${i}`), { token })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 200, 200, 429, 429, 429, 429, 429]);
    expect(await packages(org)).toBe(3);
  });

  it('through the MCP tool create_web_packages the same limit applies, answered as a tool error', async () => {
    const org = await t.newOrg();
    const token = await t.tokenFor(org);
    const client = await mcpClient(t, token);
    try {
      const statuses: (number | undefined)[] = [];
      for (let i = 0; i < 4; i++) {
        const raw = await client.callTool({ name: 'create_web_packages', arguments: body(`m${i}`) });
        const r = answer(raw);
        const headers = (raw._meta as any)?.http_headers ?? {};
        expect(headers.ratelimit).toMatch(/"client";r=\d+/);
        statuses.push(r.status);
        if (i === 3) {
          expect(r.isError).toBe(true);
          expect(r.json.errors[0].code).toBe('rate_limited');
          expect(Number(headers['retry-after'])).toBeGreaterThan(0);
        }
      }
      expect(statuses).toEqual([200, 200, 200, 429]);
      expect(await packages(org)).toBe(3);
    } finally {
      await client.close();
    }
  });
});
