import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CreatedOrg } from '../../src/modules/organizations/organizations.service';
import { cookieOf, decodeJwt, hiddenFields } from '../auth/oauth-helpers';
import { freePort, startTestApp, TestApp } from '../support/app';
import { orgUuid } from '../support/fixtures';
import { answer } from './mcp-support';

const REDIRECT = 'http://127.0.0.1:8766/mcp-callback';
const PASSWORD = 'correct horse battery staple';

/**
 * Client ID Metadata Documents (CONVENTIONS §21, issue 33 item 5;
 * src/modules/auth/client-metadata-documents.ts): the SDK's client, given a `clientMetadataUrl`
 * and seeing `client_id_metadata_document_supported` in the authorization server's metadata, uses
 * that https URL as its client_id without registering; the server fetches the document (served
 * here over https on 127.0.0.1 with a self-signed certificate, trusted through OUTBOUND_CA_FILE)
 * through the guarded outbound client, checks it, and the OAuth flow completes.
 */
class MetadataDocumentProvider implements OAuthClientProvider {
  info?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  verifier?: string;
  code?: string;
  authorizationUrl?: URL;
  registered = false;

  constructor(
    private readonly t: TestApp,
    private readonly admin: { email: string; password: string },
    readonly clientMetadataUrl: string,
  ) {}

  get redirectUrl() {
    return REDIRECT;
  }
  get clientMetadata(): OAuthClientMetadata {
    return { client_name: 'CIMD e2e client', redirect_uris: [REDIRECT], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none' };
  }
  clientInformation() {
    return this.info;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.info = info;
    if ((info as { client_id_issued_at?: number }).client_id_issued_at !== undefined) this.registered = true;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  saveCodeVerifier(v: string) {
    this.verifier = v;
  }
  codeVerifier() {
    if (!this.verifier) throw new Error('no code verifier saved');
    return this.verifier;
  }
  async redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
    const page = await fetch(url, { redirect: 'manual' });
    const html = await page.text();
    if (page.status !== 200) throw new Error(`authorization page: ${page.status} ${html.slice(0, 300)}`);
    const form = new URLSearchParams({ ...hiddenFields(html), email: this.admin.email, password: this.admin.password, action: 'approve' });
    const res = await fetch(`${this.t.baseUrl}/v2/oauth/authorize`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: cookieOf({ headers: page.headers } as any) },
      body: form.toString(),
      redirect: 'manual',
    });
    if (res.status !== 302) throw new Error(`authorization did not redirect: ${res.status} ${(await res.text()).slice(0, 300)}`);
    this.code = new URL(res.headers.get('location')!).searchParams.get('code') ?? undefined;
  }
}

describe('MCP clients identified by a Client ID Metadata Document', () => {
  let t: TestApp;
  let org: CreatedOrg;
  let dir: string;
  let docs: Server;
  let docsBase: string;
  const admin = { email: 'cimd-admin@example.test', password: PASSWORD };
  /** what the document server answers, by path, and how often each was fetched */
  const served = new Map<string, unknown>();
  const fetched = new Map<string, number>();

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cimd-'));
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
        '-days',
        '1',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
      ],
      { stdio: 'ignore' },
    );
    docs = createServer({ key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) }, (req, res) => {
      const path = req.url ?? '/';
      fetched.set(path, (fetched.get(path) ?? 0) + 1);
      const body = served.get(path);
      if (body === undefined) {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(typeof body === 'string' ? body : JSON.stringify(body));
    });
    await new Promise<void>((resolve) => docs.listen(0, '127.0.0.1', resolve));
    docsBase = `https://127.0.0.1:${(docs.address() as AddressInfo).port}`;
    const port = await freePort();
    t = await startTestApp({ PUBLIC_URL: `http://127.0.0.1:${port}`, ALLOW_PRIVATE_URLS: true, OUTBOUND_CA_FILE: join(dir, 'cert.pem') }, { port });
    org = await t.newOrg('CIMD', { adminEmail: admin.email, adminPassword: admin.password });
  });
  afterAll(async () => {
    await t?.close();
    docs?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const documentFor = (url: string, extra: Record<string, unknown> = {}) => ({
    client_id: url,
    client_name: 'CIMD e2e client',
    redirect_uris: [REDIRECT],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
    ...extra,
  });

  it('the authorization server metadata advertises metadata documents and keeps dynamic registration', async () => {
    const as = (await t.get('/.well-known/oauth-authorization-server')).body;
    expect(as.client_id_metadata_document_supported).toBe(true);
    expect(as.registration_endpoint).toBe(`${t.baseUrl}/v2/oauth/register`);
    const registered = await t.post('/v2/oauth/register', { client_name: 'still here', redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none' });
    expect(registered.status).toBe(201);
  });

  it('the SDK completes the OAuth flow with its metadata document URL as client_id, and the token works at /mcp', async () => {
    const url = `${docsBase}/clients/e2e.json`;
    served.set('/clients/e2e.json', documentFor(url));
    const provider = new MetadataDocumentProvider(t, admin, url);
    const mcpUrl = new URL(`${t.baseUrl}/mcp`);
    const client = new Client({ name: 'cimd-e2e', version: '1.0.0' });
    await expect(client.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider }))).rejects.toThrow(UnauthorizedError);
    expect(provider.registered).toBe(false); // no dynamic registration
    expect(provider.authorizationUrl!.searchParams.get('client_id')).toBe(url);
    expect(fetched.get('/clients/e2e.json')).toBeGreaterThanOrEqual(1);
    expect(provider.code).toMatch(/^cpc_/);

    const transport = new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider });
    await transport.finishAuth(provider.code!);
    const claims = decodeJwt(provider.saved!.access_token).payload;
    expect(claims.org).toBe(orgUuid(org));
    expect(claims.client_id).toBe(url);
    await client.connect(transport);
    const listed = answer(await client.callTool({ name: 'list_students', arguments: {} }));
    expect(listed).toMatchObject({ isError: false, status: 200 });
    await client.close();
    // kept: the next authorization within the refresh window does not fetch the document again
    const times = fetched.get('/clients/e2e.json');
    const again = await fetch(provider.authorizationUrl!, { redirect: 'manual' });
    expect(again.status).toBe(200);
    expect(fetched.get('/clients/e2e.json')).toBe(times);
  });

  it('a document that is missing, names another client_id, lists a bad redirect URI or carries a secret is refused on the authorization page', async () => {
    const ask = (clientId: string) =>
      fetch(
        `${t.baseUrl}/v2/oauth/authorize?${new URLSearchParams({ response_type: 'code', client_id: clientId, redirect_uri: REDIRECT, code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGlSDDh0p3', code_challenge_method: 'S256', state: 's' })}`,
        { redirect: 'manual' },
      );
    const cases: [string, unknown][] = [
      ['/missing.json', undefined],
      ['/other.json', documentFor(`${docsBase}/someone-else.json`)],
      ['/bad-redirect.json', null],
      ['/secret.json', null],
      ['/not-json.json', 'not json'],
    ];
    for (const [path, body] of cases) {
      const url = `${docsBase}${path}`;
      if (path === '/bad-redirect.json') served.set(path, documentFor(url, { redirect_uris: ['http://evil.example.test/cb'] }));
      else if (path === '/secret.json') served.set(path, documentFor(url, { client_secret: 'x', token_endpoint_auth_method: 'client_secret_post' }));
      else if (body !== undefined) served.set(path, body);
      const res = await ask(url);
      expect([path, res.status, res.headers.get('location')]).toEqual([path, 400, null]);
      expect(await res.text()).toMatch(/metadata document/);
    }
    // the redirect_uri must be one the document lists
    const url = `${docsBase}/clients/strict.json`;
    served.set('/clients/strict.json', documentFor(url, { redirect_uris: ['http://127.0.0.1:9999/elsewhere'] }));
    const res = await ask(url);
    expect(res.status).toBe(400);
    expect(res.headers.get('location')).toBeNull();
  });
});
