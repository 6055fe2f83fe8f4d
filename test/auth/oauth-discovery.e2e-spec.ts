import * as http from 'node:http';
import { freePort, startTestApp, TestApp } from '../support/app';
import { decodeJwt } from './oauth-helpers';

/**
 * Issue 25 item 4, CONVENTIONS §9: the RFC 9728 `authorization_servers` names exactly the RFC 8414
 * `issuer`, which is the tokens' `iss` (PUBLIC_URL, else http://localhost:${PORT}), whatever host
 * the metadata was asked on. A client such as oauth4webapi takes `authorization_servers[0]` as the
 * issuer identifier it expects, reads that server's metadata and refuses it unless `issuer` equals it.
 */

function getWithHost(base: string, path: string, host: string): Promise<any> {
  const u = new URL(base);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: u.hostname, port: u.port, path, method: 'GET', headers: { host } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString('utf8'))));
    });
    req.on('error', reject);
    req.end();
  });
}

async function expectOneIssuer(t: TestApp, expected: string) {
  const as = (await t.get('/.well-known/oauth-authorization-server')).body;
  expect(as.issuer).toBe(expected);
  for (const path of ['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/mcp']) {
    const pr = await t.get(path);
    expect(pr.status).toBe(200);
    expect(pr.body.authorization_servers).toEqual([expected]);
    // whatever host the metadata is asked on (the resource follows the request; the issuer does not)
    for (const host of ['127.0.0.1', 'other.example.test:4321']) {
      const viaHost = await getWithHost(t.baseUrl, path, host);
      expect(viaHost.authorization_servers).toEqual([expected]);
      expect((await getWithHost(t.baseUrl, '/.well-known/oauth-authorization-server', host)).issuer).toBe(expected);
    }
  }
  const org = await t.newOrg();
  expect(decodeJwt(await t.tokenFor(org, ['students:read'])).payload.iss).toBe(expected);
}

describe('discovery without PUBLIC_URL: one issuer, http://localhost:${PORT}', () => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    port = await freePort();
    t = await startTestApp({ PORT: port }, { port });
  });
  afterAll(() => t.close());

  it('RFC 9728 authorization_servers, RFC 8414 issuer and the tokens’ iss are the same string', async () => {
    expect(t.config.PUBLIC_URL ?? '').toBe('');
    await expectOneIssuer(t, `http://localhost:${port}`);
  });

  it('the authorization server named by the resource metadata serves metadata whose issuer is that name (the oauth4webapi check)', async () => {
    const pr = (await t.get('/.well-known/oauth-protected-resource/mcp')).body;
    const issuer = pr.authorization_servers[0] as string;
    const res = await fetch(`${issuer}/.well-known/oauth-authorization-server`);
    expect(res.status).toBe(200);
    expect(((await res.json()) as any).issuer).toBe(issuer);
  });
});

describe('discovery with PUBLIC_URL', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ PUBLIC_URL: 'https://api.example.test' });
  });
  afterAll(() => t.close());

  it('authorization_servers and issuer are PUBLIC_URL whatever the request’s host', async () => {
    await expectOneIssuer(t, 'https://api.example.test');
  });
});
