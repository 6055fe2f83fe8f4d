import { startTestApp, TestApp } from '../support/app';
import { PublishedSchemas } from '../support/published-schemas';
import { TwoOrgs, twoOrgs } from '../support/two-orgs';

/**
 * Issue 29 point 6: a path of either published document that this server does not serve answers 501
 * (`{"detail": ...}` on /v1, the JSON:API error envelope on /v2), never the 404 of an unknown object,
 * so a client can tell "not built" from "no such object" (src/core/routes/not-implemented.ts). Generated:
 * every published operation that GET /openapi.json does not serve is called. Unknown ids on served
 * routes, and paths outside both documents, keep their 404; an unpublished method on a served path its 405.
 */
describe('published operations not built answer 501', () => {
  let t: TestApp;
  let w: TwoOrgs;
  const published = new PublishedSchemas();

  beforeAll(async () => {
    t = await startTestApp();
    w = await twoOrgs(t);
  });
  afterAll(() => t.close());

  const fillFake = (path: string) => path.replace(/\{[^}]+\}/g, 'zz9notbuilt');

  it('every published operation the served document leaves out: 501 in the interface envelope', async () => {
    const served = (await t.get('/openapi.json')).body as { paths: Record<string, Record<string, unknown>> };
    const servedKeys = new Set(Object.entries(served.paths).flatMap(([p, item]) => Object.keys(item).map((m) => `${m.toUpperCase()} ${PublishedSchemas.shape(p)}`)));
    const missing = published.ops.filter((o) => !servedKeys.has(`${o.method} ${PublishedSchemas.shape(o.path)}`));
    process.stderr.write(`not built: ${missing.length}\n  ${missing.map((o) => `${o.method} ${o.path}`).join('\n  ')}\n`);
    const wrong: string[] = [];
    for (const o of missing) {
      const auth = o.doc === 'v1' ? w.A.v1 : w.A.v2;
      const res = await t.request(o.method, fillFake(o.path), { ...auth, body: ['GET', 'DELETE'].includes(o.method) ? undefined : {} });
      const ok =
        res.status === 501 &&
        (o.doc === 'v1'
          ? typeof res.body?.detail === 'string' && Object.keys(res.body).length === 1
          : res.body?.errors?.[0]?.status === '501' && res.body.errors[0].code === 'not_implemented' && /vnd\.api\+json/.test(res.headers.get('content-type') ?? ''));
      if (!ok) wrong.push(`${o.method} ${o.path}: ${res.status} ${res.text.slice(0, 120)}`);
    }
    expect(wrong).toEqual([]);
  });

  it('paths outside both published documents keep their 404', async () => {
    const res = await t.request('GET', '/v1/definitely-not-published/abc');
    expect(res.status).toBe(404);
    const v2 = await t.request('GET', '/v2/not-a-published-path/?page[size]=2', { ...w.A.v2 });
    expect(v2.status).toBe(404);
    expect(v2.body.errors[0].code).toBe('not_found');
  });

  it('unknown ids on served routes stay 404; an unpublished method on a served path stays 405', async () => {
    const v1 = await t.get('/v1/courses/zz9unknown', { ...w.A.v1 });
    expect(v1.status).toBe(404);
    expect(v1.body).toEqual({ detail: expect.any(String) });
    const v2 = await t.get('/v2/students/zz9unknown', { ...w.A.v2 });
    expect(v2.status).toBe(404);
    const put = await t.request('PUT', '/v1/courses', { ...w.A.v1, body: {} });
    expect(put.status).toBe(405);
  });
});
