import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { freePort, startTestApp, TestApp } from '../support/app';
import type { CreatedOrg } from '../../src/modules/organizations/organizations.service';
import { orgUuid } from '../support/fixtures';
import { cookieOf, decodeJwt, hiddenFields } from '../auth/oauth-helpers';
import { answer, mcpClient } from './mcp-support';

const REDIRECT = 'http://127.0.0.1:8765/mcp-callback';
const PASSWORD = 'correct horse battery staple';

/**
 * An MCP client's provider as a desktop client implements it, kept in memory. Its "browser" opens
 * the authorization URL, signs the administrator in on our page and reads the code off the
 * redirect, as the user would by clicking "Sign in and allow".
 */
class TestProvider implements OAuthClientProvider {
  info?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  verifier?: string;
  code?: string;
  authorizationUrl?: URL;

  constructor(
    private readonly t: TestApp,
    private readonly admin: { email: string; password: string },
  ) {}

  get redirectUrl() {
    return REDIRECT;
  }
  get clientMetadata(): OAuthClientMetadata {
    return { client_name: 'MCP e2e client', redirect_uris: [REDIRECT], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none' };
  }
  clientInformation() {
    return this.info;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.info = info;
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
    const location = new URL(res.headers.get('location')!);
    expect(location.origin + location.pathname).toBe(REDIRECT);
    this.code = location.searchParams.get('code') ?? undefined;
  }
}

describe('MCP server: a protected resource of the OAuth server', () => {
  let t: TestApp;
  let org: CreatedOrg;
  const admin = { email: 'mcp-admin@example.test', password: PASSWORD };

  beforeAll(async () => {
    // the SDK client follows `authorization_servers` (the issuer) to the server's metadata, so the
    // issuer must be this server's own URL: PUBLIC_URL on a port chosen before it listens
    const port = await freePort();
    t = await startTestApp({ PUBLIC_URL: `http://127.0.0.1:${port}` }, { port });
    org = await t.newOrg('MCP Auth', { adminEmail: admin.email, adminPassword: admin.password });
  });
  afterAll(() => t.close());

  const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } };
  const mcpHeaders = { accept: 'application/json, text/event-stream' };

  describe('401 and discovery', () => {
    it('without a token: 401 with a Bearer challenge naming the resource metadata', async () => {
      const res = await t.post('/mcp', initialize, { headers: mcpHeaders });
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${t.baseUrl}/.well-known/oauth-protected-resource/mcp"`);
    });

    it('with an invalid token or an organization API key: 401 invalid_token with the metadata URL', async () => {
      for (const auth of [{ token: 'not-a-jwt' }, { basic: org.api_key }]) {
        const res = await t.post('/mcp', initialize, { ...auth, headers: mcpHeaders });
        expect(res.status).toBe(401);
        expect(res.headers.get('www-authenticate')).toBe(`Bearer error="invalid_token", resource_metadata="${t.baseUrl}/.well-known/oauth-protected-resource/mcp"`);
      }
      expect((await t.request('GET', '/mcp', { headers: mcpHeaders })).status).toBe(401);
    });

    it('a valid token reaches the server; GET and DELETE (no stream, no session) are 405', async () => {
      const token = await t.tokenFor(org);
      const res = await t.post('/mcp', initialize, { token, headers: mcpHeaders });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ jsonrpc: '2.0', id: 1, result: { serverInfo: { name: 'course-platform-api' }, capabilities: { tools: {} } } });
      expect(res.headers.get('mcp-session-id')).toBeNull();
      for (const method of ['GET', 'DELETE']) {
        const r = await t.request(method, '/mcp', { token, headers: mcpHeaders });
        expect(r.status).toBe(405);
        expect(r.headers.get('allow')).toBe('POST');
      }
    });

    it('serves RFC 9728 metadata at the root and the path-suffixed form', async () => {
      const mcp = await t.get('/.well-known/oauth-protected-resource/mcp');
      expect(mcp.status).toBe(200);
      expect(mcp.body).toMatchObject({
        resource: `${t.baseUrl}/mcp`,
        authorization_servers: [t.baseUrl],
        bearer_methods_supported: ['header'],
      });
      expect(mcp.body.scopes_supported).toEqual(expect.arrayContaining(['students:read', 'students:write', 'webhooks:read']));
      const root = await t.get('/.well-known/oauth-protected-resource');
      expect(root.body).toMatchObject({ resource: t.baseUrl, authorization_servers: [t.baseUrl] });

      // what an MCP client then reads from the authorization server
      const as = (await t.get('/.well-known/oauth-authorization-server')).body;
      expect(as).toMatchObject({
        authorization_endpoint: `${t.baseUrl}/v2/oauth/authorize`,
        token_endpoint: `${t.baseUrl}/v2/auth/token`,
        registration_endpoint: `${t.baseUrl}/v2/oauth/register`,
        code_challenge_methods_supported: ['S256'],
        response_types_supported: ['code'],
      });
      expect(as.grant_types_supported).toEqual(expect.arrayContaining(['authorization_code', 'refresh_token', 'client_credentials']));
      expect(as.token_endpoint_auth_methods_supported).toContain('none');
      // the resource names the authorization server by its issuer identifier, exactly (RFC 8414 section 3.3)
      expect(as.issuer).toBe(mcp.body.authorization_servers[0]);
    });
  });

  describe('the MCP authorization flow, as the SDK client runs it', () => {
    it('401 → metadata → dynamic registration → authorization code with PKCE → token → tools', async () => {
      const provider = new TestProvider(t, admin);
      const url = new URL(`${t.baseUrl}/mcp`);
      const client = new Client({ name: 'mcp-oauth-e2e', version: '1.0.0' });
      await expect(client.connect(new StreamableHTTPClientTransport(url, { authProvider: provider }))).rejects.toThrow(UnauthorizedError);

      // registered dynamically, asked for a code with an S256 challenge and the resource
      expect(provider.info?.client_id).toMatch(/^cp_/);
      const asked = provider.authorizationUrl!;
      expect(asked.pathname).toBe('/v2/oauth/authorize');
      expect(asked.searchParams.get('code_challenge_method')).toBe('S256');
      expect(asked.searchParams.get('client_id')).toBe(provider.info!.client_id);
      expect(asked.searchParams.get('resource')).toBe(`${t.baseUrl}/mcp`);
      expect(provider.verifier).toBeDefined();
      expect(provider.code).toMatch(/^cpc_/);

      const transport = new StreamableHTTPClientTransport(url, { authProvider: provider });
      await transport.finishAuth(provider.code!);
      expect(provider.saved?.access_token).toBeDefined();
      expect(provider.saved?.refresh_token).toBeDefined();
      const claims = decodeJwt(provider.saved!.access_token).payload;
      expect(claims.org).toBe(orgUuid(org));

      await client.connect(transport);
      const names = (await client.listTools()).tools.map((x) => x.name);
      expect(names).toContain('list_students');
      // the curated default view: the everyday tools and the two that reach every operation
      expect(names).toEqual(expect.arrayContaining(['search_operations', 'call_operation']));
      expect(names.length).toBeLessThanOrEqual(40);
      const created = answer(await client.callTool({ name: 'create_students', arguments: { data: [{ type: 'students', attributes: { email: 'via-code-flow@example.test' } }] } }));
      expect(created.isError).toBe(false);
      // the student belongs to the administrator's organization
      const clientCredentials = await t.tokenFor(org);
      const seen = await t.get('/v2/students/?filter[email]=via-code-flow@example.test', { token: clientCredentials });
      expect(seen.body.data.map((s: any) => s.id)).toEqual([created.json.data[0].id]);
      await client.close();
    });

    it('a client-credentials token works as well', async () => {
      const client = await mcpClient(t, await t.tokenFor(org, ['students:read']));
      const res = answer(await client.callTool({ name: 'list_students', arguments: {} }));
      expect(res.isError).toBe(false);
      expect(Array.isArray(res.json.data)).toBe(true);
      await client.close();
    });

    it('a deactivated client loses access at once: the next message is 401', async () => {
      const org2 = await t.newOrg('MCP Deactivated');
      const full = await t.tokenFor(org2);
      const made = await t.post('/v2/clients/', { name: 'agent', scope_codenames: ['students:read'] }, { token: full });
      expect(made.status).toBe(201);
      const tokenRes = await t.post('/v2/auth/token', { client_id: made.body.data.attributes.client_id, client_secret: made.body.data.attributes.client_secret });
      const agentToken = tokenRes.body.access_token;
      expect((await t.post('/mcp', initialize, { token: agentToken, headers: mcpHeaders })).status).toBe(200);
      expect((await t.delete(`/v2/clients/${made.body.data.id}`, { token: full })).status).toBe(204);
      const after = await t.post('/mcp', initialize, { token: agentToken, headers: mcpHeaders });
      expect(after.status).toBe(401);
      expect(after.headers.get('www-authenticate')).toMatch(/resource_metadata=/);
    });
  });
});
