import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inflateRawSync } from 'node:zlib';
import { SignedXml } from 'xml-crypto';
import { freePort } from '../support/app';

/**
 * Real identity providers for the single sign-on tests, on 127.0.0.1:
 * - OIDC: oidc-provider in a child Node process (oidc-idp.mjs; the package is ESM-only);
 * - SAML: an IdP built on xml-crypto with its own key and self-signed certificate (made by openssl):
 *   GET /sso takes the SP's AuthnRequest (HTTP-Redirect binding) and answers the auto-posting form
 *   of the HTTP-POST binding with a Response whose Assertion it signs (RSA-SHA256, exclusive c14n).
 *   `next` says who signs in and how the answer is made (including the broken answers the tests send).
 */

export interface OidcIdp {
  issuer: string;
  nextLogin(sub: string, email: string, verified?: boolean): Promise<void>;
  close(): Promise<void>;
}

export async function startOidcIdp(clients: { client_id: string; client_secret: string; redirect_uris: string[] }[]): Promise<OidcIdp> {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, [join(__dirname, 'oidc-idp.mjs')], {
    env: { ...process.env, IDP_CONFIG: JSON.stringify({ port, clients }), NODE_ENV: 'test' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  child.stderr!.on('data', (d) => (err += d));
  const issuer = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /ready (\S+)/.exec(out);
      if (m) resolve(m[1]);
    });
    child.on('exit', (code) => reject(new Error(`oidc-provider exited ${code}: ${err}`)));
    setTimeout(() => reject(new Error(`oidc-provider did not start: ${err}`)), 20_000);
  });
  return {
    issuer,
    async nextLogin(sub, email, verified = true) {
      const res = await fetch(`${issuer}/__next-login?${new URLSearchParams({ sub, email, verified: String(verified) })}`);
      if (!res.ok) throw new Error('could not set the next login');
    },
    close: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

export interface SamlAnswer {
  email: string;
  /** the Audience (default: the SP entity id of the request) */
  audience?: string;
  /** SubjectConfirmationData Recipient (default: the request's ACS URL) */
  recipient?: string;
  /** false: no signature at all */
  sign?: boolean;
  /** change the email after signing */
  tamperEmail?: string;
}

export interface SamlIdp {
  entityId: string;
  ssoUrl: string;
  certificate: string;
  next: SamlAnswer;
  /** the last Response the IdP sent (base64), to replay */
  lastResponse?: string;
  close(): Promise<void>;
}

export function makeKeyPair(): { key: string; cert: string } {
  const dir = mkdtempSync(join(tmpdir(), 'saml-idp-'));
  try {
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-sha256', '-days', '2', '-subj', '/CN=test-saml-idp', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')], {
      stdio: 'ignore',
    });
    return { key: readFileSync(join(dir, 'key.pem'), 'utf8'), cert: readFileSync(join(dir, 'cert.pem'), 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');

export function samlResponse(o: { idpEntityId: string; key: string; cert: string; inResponseTo: string; acsUrl: string; spEntityId: string } & SamlAnswer): string {
  const now = new Date();
  const iso = (ms: number) => new Date(now.getTime() + ms).toISOString();
  const id = `_${randomBytes(16).toString('hex')}`;
  const assertionId = `_${randomBytes(16).toString('hex')}`;
  const assertion =
    `<saml:Assertion xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${assertionId}" Version="2.0" IssueInstant="${iso(0)}">` +
    `<saml:Issuer>${esc(o.idpEntityId)}</saml:Issuer>` +
    `<saml:Subject><saml:NameID Format="urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress">${esc(o.email)}</saml:NameID>` +
    `<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer"><saml:SubjectConfirmationData InResponseTo="${esc(o.inResponseTo)}" NotOnOrAfter="${iso(300_000)}" Recipient="${esc(o.recipient ?? o.acsUrl)}"/></saml:SubjectConfirmation></saml:Subject>` +
    `<saml:Conditions NotBefore="${iso(-30_000)}" NotOnOrAfter="${iso(300_000)}"><saml:AudienceRestriction><saml:Audience>${esc(o.audience ?? o.spEntityId)}</saml:Audience></saml:AudienceRestriction></saml:Conditions>` +
    `<saml:AuthnStatement AuthnInstant="${iso(0)}" SessionIndex="${assertionId}"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>` +
    `<saml:AttributeStatement><saml:Attribute Name="email"><saml:AttributeValue>${esc(o.email)}</saml:AttributeValue></saml:Attribute></saml:AttributeStatement>` +
    `</saml:Assertion>`;
  let xml =
    `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${id}" Version="2.0" IssueInstant="${iso(0)}" Destination="${esc(o.acsUrl)}" InResponseTo="${esc(o.inResponseTo)}">` +
    `<saml:Issuer>${esc(o.idpEntityId)}</saml:Issuer><samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>` +
    assertion +
    `</samlp:Response>`;
  if (o.sign !== false) {
    const sig = new SignedXml({
      privateKey: o.key,
      publicCert: o.cert,
      signatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
      canonicalizationAlgorithm: 'http://www.w3.org/2001/10/xml-exc-c14n#',
    });
    sig.addReference({
      xpath: "//*[local-name(.)='Assertion']",
      transforms: ['http://www.w3.org/2000/09/xmldsig#enveloped-signature', 'http://www.w3.org/2001/10/xml-exc-c14n#'],
      digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
    });
    sig.computeSignature(xml, { location: { reference: "//*[local-name(.)='Assertion']/*[local-name(.)='Issuer']", action: 'after' } });
    xml = sig.getSignedXml();
  }
  if (o.tamperEmail) xml = xml.split(esc(o.email)).join(esc(o.tamperEmail));
  return Buffer.from(xml).toString('base64');
}

export async function startSamlIdp(name: string, keys = makeKeyPair()): Promise<SamlIdp> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const idp: SamlIdp = { entityId: `${base}/${name}/metadata`, ssoUrl: `${base}/sso`, certificate: keys.cert, next: { email: '' }, close: async () => undefined };
  const server = http.createServer((req, res) => {
    const url = new URL(req.url!, base);
    if (url.pathname !== '/sso') {
      res.statusCode = 404;
      return res.end();
    }
    const request = inflateRawSync(Buffer.from(url.searchParams.get('SAMLRequest') ?? '', 'base64')).toString('utf8');
    const attr = (n: string) => new RegExp(`\\b${n}="([^"]*)"`).exec(request)?.[1] ?? '';
    const spEntityId = /<(?:\w+:)?Issuer[^>]*>([^<]*)</.exec(request)?.[1] ?? '';
    const acsUrl = attr('AssertionConsumerServiceURL').replace(/&amp;/g, '&');
    const response = samlResponse({ idpEntityId: idp.entityId, key: keys.key, cert: keys.cert, inResponseTo: attr('ID'), acsUrl, spEntityId, ...idp.next });
    idp.lastResponse = response;
    res.setHeader('content-type', 'text/html');
    res.end(
      `<html><body onload="document.forms[0].submit()"><form method="post" action="${esc(acsUrl)}">` +
        `<input type="hidden" name="SAMLResponse" value="${response}">` +
        `<input type="hidden" name="RelayState" value="${esc(url.searchParams.get('RelayState') ?? '')}">` +
        `</form></body></html>`,
    );
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  idp.close = () => new Promise((resolve) => server.close(() => resolve()));
  return idp;
}

/** A browser enough for these flows: a cookie jar (host and path) and manual redirects. */
export class Browser {
  private jar: { host: string; name: string; value: string; path: string }[] = [];

  private store(url: URL, res: Response) {
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(';').map((s) => s.trim());
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq);
      const value = pair.slice(eq + 1);
      const path = attrs.find((a) => /^path=/i.test(a))?.slice(5) ?? '/';
      const maxAge = attrs.find((a) => /^max-age=/i.test(a));
      this.jar = this.jar.filter((c) => !(c.host === url.host && c.name === name && c.path === path));
      if (maxAge && Number(maxAge.slice(8)) <= 0) continue;
      this.jar.push({ host: url.host, name, value, path });
    }
  }

  cookieFor(url: URL): string {
    return this.jar
      .filter((c) => c.host === url.host && (url.pathname === c.path || url.pathname.startsWith(c.path.endsWith('/') ? c.path : `${c.path}/`) || url.pathname.startsWith(`${c.path}?`)))
      .map((c) => `${c.name}=${c.value}`)
      .join('; ');
  }

  has(host: string, name: string) {
    return this.jar.some((c) => c.host === host && c.name === name);
  }

  async request(method: string, url: string, form?: Record<string, string>): Promise<{ status: number; url: string; location?: string; text: string }> {
    const u = new URL(url);
    const headers: Record<string, string> = {};
    const cookie = this.cookieFor(u);
    if (cookie) headers.cookie = cookie;
    let body: string | undefined;
    if (form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(form).toString();
    }
    const res = await fetch(u, { method, headers, body, redirect: 'manual' });
    this.store(u, res);
    const location = res.headers.get('location') ? new URL(res.headers.get('location')!, u).href : undefined;
    return { status: res.status, url: u.href, location, text: await res.text() };
  }

  /** Follow redirects from `url` (GET) until a page, or until a location starting with `stopAt`. */
  async follow(method: string, url: string, form?: Record<string, string>, stopAt?: string) {
    let res = await this.request(method, url, form);
    for (let i = 0; i < 20 && res.location && !(stopAt && res.location.startsWith(stopAt)); i++) res = await this.request('GET', res.location);
    return res;
  }
}

/** The fields of the SAML IdP's auto-posting form. */
export function postForm(html: string): { action: string; fields: Record<string, string> } {
  const action = /<form method="post" action="([^"]*)"/.exec(html)?.[1]?.replace(/&amp;/g, '&') ?? '';
  const fields: Record<string, string> = {};
  for (const m of html.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g))
    fields[m[1]] = m[2]
      .replace(/&amp;/g, '&')
      .replace(/&quot;/g, '"')
      .replace(/&lt;/g, '<');
  return { action, fields };
}
