// A real OpenID Connect identity provider for the single sign-on tests: oidc-provider (ESM-only, so
// it runs in this child process rather than under jest). Started by test/identity/sso-idps.ts with
// IDP_CONFIG = {"port": n, "clients": [{client_id, client_secret, redirect_uris}]}; prints
// "ready <issuer>" once listening. Who signs in next is set by GET /__next-login?sub=&email=&verified=
// (a test stand-in for the provider's own login form: the flow, tokens, signatures and checks are the real ones).
import http from 'node:http';
import Provider from 'oidc-provider';

const cfg = JSON.parse(process.env.IDP_CONFIG);
const issuer = `http://127.0.0.1:${cfg.port}`;
const accounts = new Map();
let nextLogin;

const provider = new Provider(issuer, {
  clients: cfg.clients.map((c) => ({ ...c, grant_types: ['authorization_code'], response_types: ['code'], token_endpoint_auth_method: 'client_secret_basic' })),
  async findAccount(_ctx, sub) {
    const a = accounts.get(sub);
    if (!a) return undefined;
    return { accountId: sub, async claims() { return { sub, email: a.email, email_verified: a.verified }; } };
  },
  claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
  features: { devInteractions: { enabled: false } },
  pkce: { required: () => true },
  cookies: { keys: ['sso-test-idp-cookie-key'] },
  interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
});

async function interaction(req, res) {
  const details = await provider.interactionDetails(req, res);
  const { prompt, params } = details;
  if (prompt.name === 'login') {
    if (!nextLogin) { res.statusCode = 400; res.end('no login set'); return; }
    await provider.interactionFinished(req, res, { login: { accountId: nextLogin } }, { mergeWithLastSubmission: false });
    return;
  }
  const grant = details.grantId ? await provider.Grant.find(details.grantId) : new provider.Grant({ accountId: details.session.accountId, clientId: params.client_id });
  if (prompt.details.missingOIDCScope) grant.addOIDCScope(prompt.details.missingOIDCScope.join(' '));
  if (prompt.details.missingOIDCClaims) grant.addOIDCClaims(prompt.details.missingOIDCClaims);
  if (prompt.details.missingResourceScopes) for (const [indicator, scopes] of Object.entries(prompt.details.missingResourceScopes)) grant.addResourceScope(indicator, scopes.join(' '));
  const grantId = await grant.save();
  await provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
}

const callback = provider.callback();
const server = http.createServer((req, res) => {
  const url = new URL(req.url, issuer);
  if (url.pathname === '/__next-login') {
    const sub = url.searchParams.get('sub');
    accounts.set(sub, { email: url.searchParams.get('email'), verified: url.searchParams.get('verified') !== 'false' });
    nextLogin = sub;
    res.end('ok');
    return;
  }
  if (url.pathname.startsWith('/interaction/')) {
    interaction(req, res).catch((err) => { res.statusCode = 500; res.end(String(err)); });
    return;
  }
  callback(req, res);
});
server.listen(cfg.port, '127.0.0.1', () => process.stdout.write(`ready ${issuer}\n`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
