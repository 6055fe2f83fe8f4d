import type { CreatedOrg } from '../../src/modules/organizations/organizations.service';
import { startTestApp, TestApp } from '../support/app';
import { decodeJwt } from './oauth-helpers';

describe('token endpoint: client credentials and its errors (RFC 6749 5.2)', () => {
  let t: TestApp;
  let org: CreatedOrg;
  beforeAll(async () => {
    t = await startTestApp();
    org = await t.newOrg();
  });
  afterAll(() => t.close());

  const basic = (id: string, secret: string) => ({ authorization: `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}` });

  const expectError = (res: { status: number; headers: Headers; body: any }, status: number, error: string) => {
    expect(res.status).toBe(status);
    expect(res.body).toEqual({ error, error_description: expect.any(String) });
    expect(res.headers.get('cache-control')).toBe('no-store');
  };

  it('accepts a JSON body, with or without grant_type=client_credentials', async () => {
    for (const extra of [{}, { grant_type: 'client_credentials' }]) {
      const res = await t.post('/v2/auth/token', { client_id: org.client_id, client_secret: org.client_secret, ...extra });
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.body).toEqual({ access_token: expect.any(String), token_type: 'Bearer', expires_in: 3600, scope: expect.any(String) });
      expect(res.body.refresh_token).toBeUndefined();
      expect(decodeJwt(res.body.access_token).payload.sub).toBe(org.client_id);
    }
  });

  it('accepts a form body', async () => {
    const res = await t.request('POST', '/v2/auth/token', { form: { grant_type: 'client_credentials', client_id: org.client_id, client_secret: org.client_secret } });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('accepts HTTP Basic client authentication', async () => {
    const res = await t.request('POST', '/v2/auth/token', { form: { grant_type: 'client_credentials' }, headers: basic(org.client_id, org.client_secret) });
    expect(res.status).toBe(200);
    const json = await t.post('/v2/auth/token', { grant_type: 'client_credentials' }, { headers: basic(org.client_id, org.client_secret) });
    expect(json.status).toBe(200);
  });

  it('refuses Basic and body credentials at once', async () => {
    const res = await t.post('/v2/auth/token', { client_id: org.client_id, client_secret: org.client_secret }, { headers: basic(org.client_id, org.client_secret) });
    expectError(res, 400, 'invalid_request');
  });

  it('a wrong secret or an unknown client is 401 invalid_client', async () => {
    expectError(await t.post('/v2/auth/token', { client_id: org.client_id, client_secret: 'wrong' }), 401, 'invalid_client');
    expectError(await t.post('/v2/auth/token', { client_id: 'cp_nobody', client_secret: org.client_secret }), 401, 'invalid_client');
    expectError(await t.post('/v2/auth/token', { grant_type: 'client_credentials' }, { headers: basic(org.client_id, 'wrong') }), 401, 'invalid_client');
    expectError(await t.post('/v2/auth/token', { client_id: org.client_id }), 401, 'invalid_client');
  });

  it('grant_type=password and unknown grants are 400 unsupported_grant_type', async () => {
    for (const grant_type of ['password', 'implicit', 'urn:ietf:params:oauth:grant-type:device_code', 'nope']) {
      expectError(await t.post('/v2/auth/token', { grant_type, client_id: org.client_id, client_secret: org.client_secret, username: 'a', password: 'b' }), 400, 'unsupported_grant_type');
    }
  });

  it('scope narrows the token; a scope outside the client is 400 invalid_scope', async () => {
    const narrowed = await t.post('/v2/auth/token', { client_id: org.client_id, client_secret: org.client_secret, scope: 'clients:read students:read' });
    expect(narrowed.status).toBe(200);
    expect(narrowed.body.scope).toBe('clients:read students:read');
    expect(decodeJwt(narrowed.body.access_token).payload.scope).toBe('clients:read students:read');

    const admin = await t.tokenFor(org);
    const small = await t.post('/v2/clients/', { name: 'small', scope_codenames: ['students:read'] }, { token: admin });
    const { client_id, client_secret } = small.body.data.attributes;
    expectError(await t.post('/v2/auth/token', { client_id, client_secret, scope: 'students:read clients:read' }), 400, 'invalid_scope');
    expectError(await t.post('/v2/auth/token', { client_id, client_secret, scope: 'no-such:scope' }), 400, 'invalid_scope');
    expect((await t.post('/v2/auth/token', { client_id, client_secret, scope: 'students:read' })).status).toBe(200);
  });

  it('malformed requests are 400 invalid_request, never a 500', async () => {
    expectError(await t.post('/v2/auth/token', { client_id: 42, client_secret: org.client_secret }), 400, 'invalid_request');
    expectError(await t.post('/v2/auth/token', ['x']), 400, 'invalid_request');
    expectError(await t.request('POST', '/v2/auth/token', { raw: { contentType: 'application/json', data: '{"client_id"' } }), 400, 'invalid_request');
    expectError(await t.post('/v2/auth/token', { grant_type: 'refresh_token' }), 400, 'invalid_request');
    expectError(await t.post('/v2/auth/token', { grant_type: 'refresh_token', refresh_token: 'cpr_unknown' }), 400, 'invalid_grant');
    expectError(await t.post('/v2/auth/token', { grant_type: 'authorization_code', client_id: org.client_id }), 400, 'invalid_request');
    const malformedBasic = await t.post('/v2/auth/token', {}, { headers: { authorization: 'Basic !!!' } });
    expect(malformedBasic.status).toBe(401);
  });

  it('ip_allowlist: tokens only to requests from a listed address', async () => {
    const admin = await t.tokenFor(org);
    const elsewhere = await t.post('/v2/clients/', { name: 'office only', scope_codenames: ['clients:read'], ip_allowlist: ['10.0.0.0/8', '192.0.2.1'] }, { token: admin });
    expect(elsewhere.status).toBe(201);
    const refused = await t.post('/v2/auth/token', { client_id: elsewhere.body.data.attributes.client_id, client_secret: elsewhere.body.data.attributes.client_secret });
    expectError(refused, 401, 'invalid_client');

    const local = await t.post('/v2/clients/', { name: 'local', scope_codenames: ['clients:read'], ip_allowlist: ['127.0.0.1'] }, { token: admin });
    const allowed = await t.post('/v2/auth/token', { client_id: local.body.data.attributes.client_id, client_secret: local.body.data.attributes.client_secret });
    expect(allowed.status).toBe(200);
    const block = await t.post('/v2/clients/', { name: 'loopback block', ip_allowlist: ['127.0.0.0/8'] }, { token: admin });
    expect((await t.post('/v2/auth/token', { client_id: block.body.data.attributes.client_id, client_secret: block.body.data.attributes.client_secret })).status).toBe(200);

    // narrowing the list later applies to the next request
    const patched = await t.patch(`/v2/clients/${local.body.data.id}`, { ip_allowlist: ['10.1.2.3'] }, { token: admin });
    expect(patched.status).toBe(200);
    const after = await t.post('/v2/auth/token', { client_id: local.body.data.attributes.client_id, client_secret: local.body.data.attributes.client_secret });
    expectError(after, 401, 'invalid_client');
  });
});
