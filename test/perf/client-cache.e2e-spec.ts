import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DataSource } from 'typeorm';
import { createApp } from '../../src/app.factory';
import { decodeId } from '../../src/core/ids/ids';
import type { CreatedOrg } from '../../src/modules/organizations/organizations.service';
import { startTestApp, TestApp } from '../support/app';

/**
 * The token endpoint's cache of verified clients (AuthService.verifiedClient, ClientsService.authenticate):
 * with a long AUTH_CACHE_SECONDS, every change of a client through the API still takes effect at
 * once, in this process and (through Redis) in another API process on the same database; a wrong
 * secret is never answered from the cache.
 */
describe('token endpoint: cached client verification and its invalidation', () => {
  let t: TestApp;
  let org: CreatedOrg;
  let admin: string;
  beforeAll(async () => {
    t = await startTestApp({ AUTH_CACHE_SECONDS: 60 });
    org = await t.newOrg();
    admin = await t.tokenFor(org);
  });
  afterAll(() => t.close());

  const token = (base: string, creds: { client_id: string; client_secret: string }, scope?: string) =>
    fetch(`${base}/v2/auth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_id: creds.client_id, client_secret: creds.client_secret, ...(scope ? { scope } : {}) }),
    }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));

  const newClient = async (attrs: Record<string, unknown> = {}) => {
    const made = await t.post('/v2/clients/', { name: `cached ${Math.random()}`, scope_codenames: ['students:read', 'courses:read'], ...attrs }, { token: admin });
    expect(made.status).toBe(201);
    return { id: made.body.data.id as string, creds: { client_id: made.body.data.attributes.client_id, client_secret: made.body.data.attributes.client_secret } };
  };

  it('serves a verified client from the cache: a change made behind the API is not seen until the entry expires', async () => {
    const c = await newClient();
    expect((await token(t.baseUrl, c.creds)).status).toBe(200);
    // deactivated in the database directly (no invalidation): the cached verification still answers
    await t.ds.query(`UPDATE oauth_clients SET is_active = false WHERE id = $1 AND organization_id = $2`, [decodeId('client', c.id), decodeId('organization', org.organization_id)]);
    expect((await token(t.baseUrl, c.creds)).status).toBe(200);
  });

  it('never answers another secret from the cache', async () => {
    const c = await newClient();
    expect((await token(t.baseUrl, c.creds)).status).toBe(200);
    const wrong = await token(t.baseUrl, { client_id: c.creds.client_id, client_secret: `${c.creds.client_secret.slice(0, -1)}x` });
    expect(wrong.status).toBe(401);
    expect(wrong.body.error).toBe('invalid_client');
    const other = await newClient();
    expect((await token(t.baseUrl, { client_id: c.creds.client_id, client_secret: other.creds.client_secret })).status).toBe(401);
    expect((await token(t.baseUrl, c.creds)).status).toBe(200);
  });

  it('rotate-secret: the old secret is refused at once, the new one works', async () => {
    const c = await newClient();
    expect((await token(t.baseUrl, c.creds)).status).toBe(200);
    const rotated = await t.post(`/v2/clients/${c.id}/rotate-secret`, undefined, { token: admin });
    expect(rotated.status).toBe(200);
    const old = await token(t.baseUrl, c.creds);
    expect(old.status).toBe(401);
    expect(old.body.error).toBe('invalid_client');
    expect((await token(t.baseUrl, { client_id: c.creds.client_id, client_secret: rotated.body.data.attributes.client_secret })).status).toBe(200);
  });

  it('delete (deactivate): its secret is refused at once, and so are its access tokens', async () => {
    const c = await newClient();
    const issued = await token(t.baseUrl, c.creds);
    expect(issued.status).toBe(200);
    expect((await t.get('/v2/students/', { token: issued.body.access_token })).status).toBe(200);
    expect((await t.delete(`/v2/clients/${c.id}`, { token: admin })).status).toBe(204);
    expect((await token(t.baseUrl, c.creds)).status).toBe(401);
    expect((await t.get('/v2/students/', { token: issued.body.access_token })).status).toBe(401);
  });

  it('update: narrowed scopes and a new IP allowlist apply to the next token at once', async () => {
    const c = await newClient();
    expect((await token(t.baseUrl, c.creds, 'courses:read')).status).toBe(200);
    expect((await t.patch(`/v2/clients/${c.id}`, { scope_codenames: ['students:read'] }, { token: admin })).status).toBe(200);
    const narrowed = await token(t.baseUrl, c.creds, 'courses:read');
    expect(narrowed.status).toBe(400);
    expect(narrowed.body.error).toBe('invalid_scope');
    const all = await token(t.baseUrl, c.creds);
    expect(all.status).toBe(200);
    expect(all.body.scope).toBe('students:read');
    expect((await t.patch(`/v2/clients/${c.id}`, { ip_allowlist: ['203.0.113.7'] }, { token: admin })).status).toBe(200);
    expect((await token(t.baseUrl, c.creds)).status).toBe(401);
  });

  describe('another API process on the same database and Redis', () => {
    let other: NestFastifyApplication;
    let otherUrl: string;
    beforeAll(async () => {
      other = await createApp(t.config);
      await other.listen({ port: 0, host: '127.0.0.1' });
      otherUrl = `http://127.0.0.1:${(other.getHttpServer().address() as import('node:net').AddressInfo).port}`;
      expect(other.get(DataSource)).not.toBe(t.ds);
    });
    afterAll(() => other.close());

    /** The change reaches the other process through Redis: within a second, far below the 60 s cache. */
    const eventually = async (probe: () => Promise<number>, status: number) => {
      let last = 0;
      for (let i = 0; i < 20; i++) {
        last = await probe();
        if (last === status) return last;
        await new Promise((r) => setTimeout(r, 50));
      }
      return last;
    };

    /** Cache the client in the other process once its subscription is up (subscribing clears its caches). */
    const cachedInOther = async (creds: { client_id: string; client_secret: string }) => {
      const first = await token(otherUrl, creds);
      expect(first.status).toBe(200);
      await new Promise((r) => setTimeout(r, 300));
      const again = await token(otherUrl, creds);
      expect(again.status).toBe(200);
      return again;
    };

    it('a secret rotated through one process is refused by the other, which had cached it', async () => {
      const c = await newClient();
      await cachedInOther(c.creds);
      const rotated = await t.post(`/v2/clients/${c.id}/rotate-secret`, undefined, { token: admin });
      expect(rotated.status).toBe(200);
      expect(await eventually(async () => (await token(otherUrl, c.creds)).status, 401)).toBe(401);
      expect((await token(otherUrl, { client_id: c.creds.client_id, client_secret: rotated.body.data.attributes.client_secret })).status).toBe(200);
    });

    it('a client deleted through one process: the other refuses its secret and its access tokens', async () => {
      const c = await newClient();
      const issued = await cachedInOther(c.creds);
      const read = () => fetch(`${otherUrl}/v2/students/`, { headers: { authorization: `Bearer ${issued.body.access_token}` } }).then((r) => r.status);
      expect(await read()).toBe(200);
      expect((await t.delete(`/v2/clients/${c.id}`, { token: admin })).status).toBe(204);
      expect(await eventually(async () => (await token(otherUrl, c.creds)).status, 401)).toBe(401);
      expect(await eventually(read, 401)).toBe(401);
    });
  });
});
