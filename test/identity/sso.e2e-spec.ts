import type { CreatedOrg } from '../../src/modules/organizations/organizations.service';
import { closeOutboundAgents } from '../../src/core/net/guarded-http';
import { freePort, startTestApp, TestApp } from '../support/app';
import { authorizeCode, authorizeQuery, hiddenFields, pkce, REDIRECT, registerClient } from '../auth/oauth-helpers';
import { Browser, OidcIdp, postForm, SamlIdp, startOidcIdp, startSamlIdp } from './sso-idps';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The real command (`npm run --silent cli -- ...`) against the test app's database: its one JSON line, or the error's. */
function cli(databaseUrl: string, args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; out: any }> {
  return new Promise((resolve, reject) => {
    const child = spawn('npm', ['run', '--silent', 'cli', '--', ...args], {
      cwd: `${__dirname}/../..`,
      env: { ...process.env, DATABASE_URL: databaseUrl, NODE_ENV: 'test', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout!.on('data', (d) => (out += d));
    child.stderr!.on('data', (d) => (err += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out: JSON.parse((code === 0 ? out : err).trim().split('\n').pop() || '{}') }));
  });
}

jest.setTimeout(120_000);

const PASSWORD = 'correct horse battery';
const SCOPE = 'courses:read courses:write students:read students:write';

/**
 * Administrator single sign-on on the consent page (CONVENTIONS §19), against real identity
 * providers on 127.0.0.1: oidc-provider (OIDC) and a SAML IdP signing with its own key (xml-crypto).
 * Every step goes through HTTP as a browser would: authorization request -> IdP -> callback/ACS ->
 * consent -> code -> token.
 */
describe('administrator single sign-on', () => {
  let t: TestApp;
  let base: string;
  let oidcOrg: CreatedOrg;
  let otherOidcOrg: CreatedOrg;
  let samlOrg: CreatedOrg;
  let otherSamlOrg: CreatedOrg;
  let idp: OidcIdp;
  let saml: SamlIdp;
  let otherSaml: SamlIdp;

  const callbackOf = (org: CreatedOrg) => `${base}/auth/sso/${org.organization_id}/oidc/callback`;

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    t = await startTestApp({ PUBLIC_URL: base, ALLOW_PRIVATE_URLS: true, AUTH_CACHE_SECONDS: 0 }, { port });
    oidcOrg = await t.newOrg('OIDC Org', { adminEmail: 'owner@oidc.test', adminPassword: PASSWORD });
    otherOidcOrg = await t.newOrg('Other OIDC Org', { adminEmail: 'owner@other-oidc.test', adminPassword: PASSWORD });
    samlOrg = await t.newOrg('SAML Org', { adminEmail: 'owner@saml.test', adminPassword: PASSWORD });
    otherSamlOrg = await t.newOrg('Other SAML Org', { adminEmail: 'owner@other-saml.test', adminPassword: PASSWORD });
    idp = await startOidcIdp([
      { client_id: 'platform-a', client_secret: 'secret-a-0123456789abcdef', redirect_uris: [callbackOf(oidcOrg)] },
      { client_id: 'platform-b', client_secret: 'secret-b-0123456789abcdef', redirect_uris: [callbackOf(otherOidcOrg)] },
    ]);
    saml = await startSamlIdp('idp-one');
    otherSaml = await startSamlIdp('idp-two');
  });
  afterAll(async () => {
    await idp?.close();
    await saml?.close();
    await otherSaml?.close();
    await t?.close();
    closeOutboundAgents(); // the keep-alive sockets to the identity providers
  });

  /** An app (dynamic registration) bound to `org` by a first approval of its owner with a password, as any app is. */
  async function appOf(org: CreatedOrg, ownerEmail: string) {
    const reg = await registerClient(t, { token_endpoint_auth_method: 'none', scope: SCOPE });
    await authorizeCode(t, { clientId: reg.client_id, challenge: pkce().challenge, scope: SCOPE, email: ownerEmail, password: PASSWORD });
    return reg.client_id;
  }

  const authorizeUrl = (clientId: string, challenge: string) =>
    base + authorizeQuery({ response_type: 'code', client_id: clientId, redirect_uri: REDIRECT, code_challenge: challenge, code_challenge_method: 'S256', scope: SCOPE, state: 'app-state' });

  /** The consent page after the IdP's round trip: approve, take the code, exchange it. */
  async function approveAndExchange(browser: Browser, consent: { status: number; text: string }, clientId: string, verifier: string) {
    expect(consent.status).toBe(200);
    expect(consent.text).toContain("through your organization's identity provider");
    expect(consent.text).not.toContain('name="password"');
    const approved = await browser.request('POST', `${base}/v2/oauth/authorize`, { ...hiddenFields(consent.text), action: 'approve' });
    expect(approved.status).toBe(302);
    const loc = new URL(approved.location!);
    expect(loc.href.startsWith(REDIRECT)).toBe(true);
    const code = loc.searchParams.get('code')!;
    expect(code).toBeTruthy();
    const token = await t.post('/v2/auth/token', { grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: REDIRECT, client_id: clientId });
    expect(token.status).toBe(200);
    return { token: token.body as { access_token: string; scope: string }, approvedForm: { ...hiddenFields(consent.text), action: 'approve' } };
  }

  describe('OIDC', () => {
    it('PUT /v1/organization/sso checks every member, discovers the issuer, and never returns the secret', async () => {
      const auth = { basic: oidcOrg.api_key };
      expect((await t.get('/v1/organization/sso', auth)).status).toBe(404);
      const noProtocol = await t.request('PUT', '/v1/organization/sso', { ...auth, body: { issuer: idp.issuer } });
      expect(noProtocol.status).toBe(400);
      expect(noProtocol.body.protocol).toBeDefined();
      const badUrl = await t.request('PUT', '/v1/organization/sso', { ...auth, body: { protocol: 'oidc', issuer: 'not a url', client_id: 'x', client_secret: 'y' } });
      expect(badUrl.status).toBe(400);
      expect(badUrl.body.issuer).toBeDefined();
      const noDiscovery = await t.request('PUT', '/v1/organization/sso', { ...auth, body: { protocol: 'oidc', issuer: `${base}/nothing-here`, client_id: 'x', client_secret: 'y' } });
      expect(noDiscovery.status).toBe(400);
      expect(noDiscovery.body.issuer[0]).toContain('discovery');
      const badRole = await t.request('PUT', '/v1/organization/sso', {
        ...auth,
        body: { protocol: 'oidc', issuer: idp.issuer, client_id: 'platform-a', client_secret: 'secret-a-0123456789abcdef', jit: true, default_role: 'emperor' },
      });
      expect(badRole.status).toBe(400);
      expect(badRole.body.default_role).toBeDefined();
      expect((await t.get('/v1/organization/sso', auth)).status).toBe(404);

      const put = await t.request('PUT', '/v1/organization/sso', {
        ...auth,
        body: { protocol: 'oidc', issuer: idp.issuer, client_id: 'platform-a', client_secret: 'secret-a-0123456789abcdef', jit: true, default_role: 'reporter' },
      });
      expect(put.status).toBe(200);
      expect(put.body).toEqual({
        protocol: 'oidc',
        issuer: idp.issuer,
        client_id: 'platform-a',
        jit: true,
        default_role: 'reporter',
        login_url: `${base}/auth/sso/${oidcOrg.organization_id}/start`,
        redirect_uri: callbackOf(oidcOrg),
        created_at: expect.any(String),
        updated_at: expect.any(String),
      });
      expect(put.text).not.toContain('secret-a');
      expect((await t.get('/v1/organization/sso', auth)).body).toEqual(put.body);
      const [row] = await t.ownerQuery(`SELECT client_secret_enc, settings::text AS s FROM organization_sso WHERE organization_id = (SELECT organization_id FROM organization_sso LIMIT 1)`);
      expect(row.client_secret_enc).not.toContain('secret-a');
      expect(row.s).not.toContain('secret-a');
      // the other organization sees nothing of it
      expect((await t.get('/v1/organization/sso', { basic: otherOidcOrg.api_key })).status).toBe(404);
      const b = await t.request('PUT', '/v1/organization/sso', {
        basic: otherOidcOrg.api_key,
        body: { protocol: 'oidc', issuer: idp.issuer, client_id: 'platform-b', client_secret: 'secret-b-0123456789abcdef', jit: true, default_role: 'admin' },
      });
      expect(b.status).toBe(200);
    });

    it('an existing administrator signs in through the IdP from the consent page; the token holds at most their role', async () => {
      const made = await t.post('/v1/admins', { email: 'editor@oidc.test', role: 'content-editor' }, { basic: oidcOrg.api_key });
      expect(made.status).toBe(201);
      const reg = await registerClient(t, { token_endpoint_auth_method: 'none', scope: SCOPE }); // not yet bound: the email leads to the IdP
      const { verifier, challenge } = pkce();
      const browser = new Browser();
      const page = await browser.request('GET', authorizeUrl(reg.client_id, challenge));
      expect(page.status).toBe(200);
      expect(page.text).toContain('Sign in with your identity provider');
      await idp.nextLogin('editor-sub', 'editor@oidc.test');
      const toIdp = await browser.request('POST', `${base}/v2/oauth/authorize`, { ...hiddenFields(page.text), email: 'Editor@oidc.test', action: 'sso' });
      expect(toIdp.status).toBe(302);
      expect(toIdp.location).toContain(`/auth/sso/${oidcOrg.organization_id}/start?return_to=`);
      const consent = await browser.follow('GET', toIdp.location!);
      const { token, approvedForm } = await approveAndExchange(browser, consent, reg.client_id, verifier);
      expect(token.scope.split(' ').sort()).toEqual(['courses:read', 'courses:write', 'students:read']);
      const write = await t.post('/v2/students/', { data: [{ type: 'students', attributes: { email: 's@x.test', first_name: 'A', last_name: 'B' } }] }, { token: token.access_token });
      expect(write.status).toBe(403);
      // the SSO sign-in approves once
      const again = await browser.request('POST', `${base}/v2/oauth/authorize`, approvedForm);
      expect(again.status).toBe(403);
      const admins = await t.get('/v1/admins', { basic: oidcOrg.api_key });
      expect(admins.body.results.find((a: any) => a.email === 'editor@oidc.test').last_sign_in_at).not.toBeNull();
    });

    it('just-in-time creation gives a new administrator the default role (reporter: read scopes only)', async () => {
      const clientId = await appOf(oidcOrg, 'owner@oidc.test');
      const { verifier, challenge } = pkce();
      const browser = new Browser();
      const page = await browser.request('GET', authorizeUrl(clientId, challenge));
      const link = /<a id="sso-link" href="([^"]*)"/.exec(page.text)?.[1]?.replace(/&#(\d+);/g, (_, n) => String.fromCharCode(Number(n)));
      expect(link).toContain(`/auth/sso/${oidcOrg.organization_id}/start?return_to=`);
      await idp.nextLogin('new-sub', 'newcomer@oidc.test');
      const consent = await browser.follow('GET', link!);
      const { token } = await approveAndExchange(browser, consent, clientId, verifier);
      expect(token.scope.split(' ').sort()).toEqual(['courses:read', 'students:read']);
      const admins = await t.get('/v1/admins', { basic: oidcOrg.api_key });
      expect(admins.body.results.find((a: any) => a.email === 'newcomer@oidc.test').role).toBe('reporter');
    });

    it('refuses a bad state, a callback from another browser, and an unverified email', async () => {
      const clientId = await appOf(oidcOrg, 'owner@oidc.test');
      const returnTo = encodeURIComponent(authorizeUrl(clientId, pkce().challenge).slice(base.length));
      await idp.nextLogin('editor-sub', 'editor@oidc.test');
      const browser = new Browser();
      const atCallback = await browser.follow('GET', `${base}/auth/sso/${oidcOrg.organization_id}/start?return_to=${returnTo}`, undefined, callbackOf(oidcOrg));
      const cb = new URL(atCallback.location!);
      expect(cb.searchParams.get('code')).toBeTruthy();
      const forged = new URL(cb);
      forged.searchParams.set('state', `${cb.searchParams.get('state')}x`);
      const bad = await browser.request('GET', forged.href);
      expect(bad.status).toBe(400);
      expect(bad.text).toContain('state is unknown');
      // the right state in a browser that did not start the sign-in
      const stranger = await new Browser().request('GET', cb.href);
      expect(stranger.status).toBe(400);
      expect(stranger.text).toContain('not started in this browser');
      // and that state is spent
      expect((await browser.request('GET', cb.href)).status).toBe(400);

      await idp.nextLogin('unverified-sub', 'unverified@oidc.test', false);
      const b2 = new Browser();
      const res = await b2.follow('GET', `${base}/auth/sso/${oidcOrg.organization_id}/start?return_to=${returnTo}`);
      expect(res.status).toBe(403);
      expect(res.text).toContain('verified email');
      // return_to must be a path here
      expect((await new Browser().request('GET', `${base}/auth/sso/${oidcOrg.organization_id}/start?return_to=${encodeURIComponent('https://evil.test/')}`)).status).toBe(400);
    });

    it("another organization's identity provider cannot sign anyone in to this one", async () => {
      const clientOfA = await appOf(oidcOrg, 'owner@oidc.test');
      const { challenge } = pkce();
      const returnTo = encodeURIComponent(authorizeUrl(clientOfA, challenge).slice(base.length));
      // org B's IdP asserts the email of org A's owner: not an administrator of B, and JIT cannot take it
      await idp.nextLogin('a-owner', 'owner@oidc.test');
      const b = new Browser();
      const res = await b.follow('GET', `${base}/auth/sso/${otherOidcOrg.organization_id}/start?return_to=${returnTo}`);
      expect(res.status).toBe(403);
      expect(b.has(new URL(base).host, 'cp_sso_session')).toBe(false);
      // an administrator of B signed in through B's IdP cannot approve org A's app
      await idp.nextLogin('b-admin', 'someone@other-oidc.test');
      const b2 = new Browser();
      const consent = await b2.follow('GET', `${base}/auth/sso/${otherOidcOrg.organization_id}/start?return_to=${returnTo}`);
      expect(consent.status).toBe(200);
      const approve = await b2.request('POST', `${base}/v2/oauth/authorize`, { ...hiddenFields(consent.text), action: 'approve' });
      expect(approve.status).toBe(403);
      expect(approve.text).toContain('another organization');
      // org B's callback cannot take a code made for org A's flow (state belongs to A)
      await idp.nextLogin('editor-sub', 'editor@oidc.test');
      const b3 = new Browser();
      const atA = await b3.follow('GET', `${base}/auth/sso/${oidcOrg.organization_id}/start?return_to=${returnTo}`, undefined, callbackOf(oidcOrg));
      const moved = new URL(atA.location!.replace(oidcOrg.organization_id, otherOidcOrg.organization_id));
      expect((await b3.request('GET', moved.href)).status).toBe(400);
    });
  });

  describe('SAML', () => {
    beforeAll(async () => {
      for (const [org, p] of [
        [samlOrg, saml],
        [otherSamlOrg, otherSaml],
      ] as const) {
        const put = await t.request('PUT', '/v1/organization/sso', {
          basic: org.api_key,
          body: { protocol: 'saml', idp_entity_id: p.entityId, idp_sso_url: p.ssoUrl, idp_certificate: p.certificate, jit: false },
        });
        expect(put.status).toBe(200);
      }
    });

    it('PUT answers the SP side; bad values are 400 naming the member; the metadata names the ACS', async () => {
      const got = await t.get('/v1/organization/sso', { basic: samlOrg.api_key });
      const sso = `${base}/auth/sso/${samlOrg.organization_id}`;
      expect(got.body).toMatchObject({
        protocol: 'saml',
        idp_entity_id: saml.entityId,
        jit: false,
        default_role: 'reporter',
        login_url: `${sso}/start`,
        acs_url: `${sso}/saml/acs`,
        sp_entity_id: `${sso}/saml/metadata`,
        metadata_url: `${sso}/saml/metadata`,
      });
      const bad = await t.request('PUT', '/v1/organization/sso', { basic: samlOrg.api_key, body: { protocol: 'saml', idp_entity_id: 'x', idp_sso_url: 'ftp://x', idp_certificate: 'not a cert' } });
      expect(bad.status).toBe(400);
      expect(Object.keys(bad.body).sort()).toEqual(['idp_certificate', 'idp_sso_url']);
      const meta = await t.get(`/auth/sso/${samlOrg.organization_id}/saml/metadata`);
      expect(meta.status).toBe(200);
      expect(meta.text).toContain(`Location="${sso}/saml/acs"`);
    });

    /** start -> IdP (its auto-posting form) ; returns the form without posting it. */
    async function toIdp(browser: Browser, org: CreatedOrg, returnTo: string) {
      const start = await browser.request('GET', `${base}/auth/sso/${org.organization_id}/start?return_to=${encodeURIComponent(returnTo)}`);
      expect(start.status).toBe(302);
      const atIdp = await browser.request('GET', start.location!);
      expect(atIdp.status).toBe(200);
      return postForm(atIdp.text);
    }

    it('an administrator signs in through the SAML IdP and approves; the token holds at most their role', async () => {
      await t.post('/v1/admins', { email: 'reporter@saml.test', role: 'reporter' }, { basic: samlOrg.api_key });
      const clientId = await appOf(samlOrg, 'owner@saml.test');
      const { verifier, challenge } = pkce();
      const browser = new Browser();
      const page = await browser.request('GET', authorizeUrl(clientId, challenge));
      const link = /<a id="sso-link" href="([^"]*)"/.exec(page.text)![1].replace(/&#(\d+);/g, (_, n) => String.fromCharCode(Number(n)));
      saml.next = { email: 'reporter@saml.test' };
      const started = await browser.request('GET', link);
      const form = postForm((await browser.request('GET', started.location!)).text);
      expect(form.action).toBe(`${base}/auth/sso/${samlOrg.organization_id}/saml/acs`);
      const consent = await browser.follow('POST', form.action, form.fields);
      const { token } = await approveAndExchange(browser, consent, clientId, verifier);
      expect(token.scope.split(' ').sort()).toEqual(['courses:read', 'students:read']);
    });

    it('refuses an unsigned, a tampered, a wrong-audience, a wrong-recipient and a replayed answer, and an unknown administrator', async () => {
      const returnTo = '/v2/oauth/authorize?client_id=x';
      const refused = async (answer: SamlIdp['next'], expectText: string) => {
        saml.next = answer;
        const browser = new Browser();
        const form = await toIdp(browser, samlOrg, returnTo);
        const res = await browser.follow('POST', form.action, form.fields);
        expect(res.status).toBeGreaterThanOrEqual(400);
        expect(res.status).toBeLessThan(500);
        expect(res.text).toContain(expectText);
        expect(browser.has(new URL(base).host, 'cp_sso_session')).toBe(false);
      };
      await refused({ email: 'reporter@saml.test', sign: false }, 'SAML answer was refused');
      await refused({ email: 'reporter@saml.test', tamperEmail: 'owner@saml.test' }, 'SAML answer was refused');
      await refused({ email: 'reporter@saml.test', audience: 'https://someone-else.test/sp' }, 'audience');
      await refused({ email: 'reporter@saml.test', recipient: 'https://someone-else.test/acs' }, 'Recipient');
      await refused({ email: 'stranger@saml.test' }, 'is not an administrator');

      // a replay: a good answer, accepted once, then posted again within a new sign-in's RelayState
      saml.next = { email: 'reporter@saml.test' };
      const browser = new Browser();
      const first = await toIdp(browser, samlOrg, returnTo);
      const ok = await browser.request('POST', first.action, first.fields);
      expect(ok.status).toBe(303);
      expect((await browser.request('POST', first.action, first.fields)).status).toBe(400); // same RelayState: spent
      const second = await toIdp(browser, samlOrg, returnTo);
      const replay = await browser.request('POST', first.action, { SAMLResponse: first.fields.SAMLResponse, RelayState: second.fields.RelayState });
      expect(replay.status).toBe(400);
      expect(replay.text).toContain('SAML answer was refused');
      // the ACS's ticket is taken by the browser that started the sign-in only
      const third = await toIdp(browser, samlOrg, returnTo);
      const acs = await browser.request('POST', third.action, third.fields);
      const stranger = await new Browser().request('GET', acs.location!);
      expect(stranger.status).toBe(400);
    });

    it("another organization's SAML IdP cannot sign in to this one", async () => {
      // org D's IdP signs an answer to org C's request: C does not trust D's certificate
      otherSaml.next = { email: 'reporter@saml.test' };
      const browser = new Browser();
      const start = await browser.request('GET', `${base}/auth/sso/${samlOrg.organization_id}/start?return_to=${encodeURIComponent('/v2/oauth/authorize')}`);
      const request = new URL(start.location!);
      const viaOther = await browser.request('GET', `${otherSaml.ssoUrl}${request.search}`);
      const form = postForm(viaOther.text);
      const res = await browser.request('POST', form.action, form.fields);
      expect(res.status).toBe(400);
      expect(res.text).toContain('SAML answer was refused');
      // and an answer of org D's own flow posted to org C's ACS is refused too
      const b2 = new Browser();
      const own = await toIdp(b2, otherSamlOrg, '/v2/oauth/authorize');
      const cross = await b2.request('POST', `${base}/auth/sso/${samlOrg.organization_id}/saml/acs`, own.fields);
      expect(cross.status).toBe(400);
    });

    it('the CLI sets, shows and removes the configuration', async () => {
      const org = await t.newOrg('CLI SSO Org');
      const dir = mkdtempSync(join(tmpdir(), 'sso-cli-'));
      try {
        const pem = join(dir, 'idp.pem');
        writeFileSync(pem, saml.certificate);
        const db = t.config.DATABASE_URL;
        const env = { PUBLIC_URL: base, ALLOW_PRIVATE_URLS: 'true' };
        const bad = await cli(db, ['set-sso', '--org', org.organization_id, '--protocol', 'saml', '--idp-entity-id', saml.entityId, '--idp-sso-url', 'nope', '--idp-certificate-file', pem], env);
        expect(bad.code).toBe(2);
        expect(bad.out.error).toContain('idp_sso_url');
        const set = await cli(
          db,
          [
            'set-sso',
            '--org',
            org.organization_id,
            '--protocol',
            'saml',
            '--idp-entity-id',
            saml.entityId,
            '--idp-sso-url',
            saml.ssoUrl,
            '--idp-certificate-file',
            pem,
            '--jit',
            '--default-role',
            'content-editor',
          ],
          env,
        );
        if (set.code !== 0) throw new Error(JSON.stringify(set.out));
        expect(set.code).toBe(0);
        expect(set.out.sso).toMatchObject({ protocol: 'saml', jit: true, default_role: 'content-editor', acs_url: `${base}/auth/sso/${org.organization_id}/saml/acs` });
        expect((await t.get('/v1/organization/sso', { basic: org.api_key })).body).toEqual(set.out.sso);
        expect((await cli(db, ['show-sso', '--org', org.organization_id], env)).out.sso).toEqual(set.out.sso);
        expect((await cli(db, ['remove-sso', '--org', org.organization_id])).code).toBe(0);
        expect((await t.get('/v1/organization/sso', { basic: org.api_key })).status).toBe(404);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });

    it('DELETE turns single sign-on off', async () => {
      expect((await t.delete('/v1/organization/sso', { basic: otherSamlOrg.api_key })).status).toBe(204);
      expect((await t.get('/v1/organization/sso', { basic: otherSamlOrg.api_key })).status).toBe(404);
      expect((await t.get(`/auth/sso/${otherSamlOrg.organization_id}/start?return_to=%2F`)).status).toBe(404);
    });
  });
});
