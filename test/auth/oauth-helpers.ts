import { createHash, randomBytes } from 'node:crypto';
import { AuthInvalidationBus } from '../../src/core/auth/invalidation';
import type { HttpResponse, TestApp } from '../support/app';
import { waitFor } from '../support/eventually';

/** Shared steps of the OAuth e2e tests: PKCE pairs, registration, the authorization page. */

export function pkce() {
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  return { verifier, challenge };
}

export const REDIRECT = 'http://127.0.0.1:8765/callback';

export async function registerClient(t: TestApp, extra: Record<string, unknown> = {}) {
  const res = await t.post('/v2/oauth/register', { client_name: 'Test App', redirect_uris: [REDIRECT], ...extra });
  if (res.status !== 201) throw new Error(`registration failed: ${res.status} ${res.text}`);
  return res.body as { client_id: string; client_secret?: string; redirect_uris: string[]; scope: string };
}

export function authorizeQuery(params: Record<string, string | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined) q.append(k, v);
  return `/v2/oauth/authorize?${q.toString()}`;
}

/** The hidden fields of the sign-in form. */
export function hiddenFields(html: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of html.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g)) {
    out[m[1]] = m[2].replace(/&#(\d+);/g, (_, n) => String.fromCharCode(Number(n)));
  }
  return out;
}

export function cookieOf(res: HttpResponse): string {
  const set = res.headers.get('set-cookie') ?? '';
  return set.split(';')[0];
}

export interface AuthorizeInput {
  clientId: string;
  redirectUri?: string;
  challenge: string;
  scope?: string;
  state?: string;
  email: string;
  password: string;
}

/** GET the page, then POST sign-in + consent with the form's hidden fields and cookie. */
export async function submitAuthorize(t: TestApp, input: AuthorizeInput, override: Record<string, string> = {}) {
  const page = await t.get(
    authorizeQuery({
      response_type: 'code',
      client_id: input.clientId,
      redirect_uri: input.redirectUri ?? REDIRECT,
      code_challenge: input.challenge,
      code_challenge_method: 'S256',
      scope: input.scope,
      state: input.state ?? 'st-123',
    }),
  );
  if (page.status !== 200) throw new Error(`authorize page failed: ${page.status} ${page.text}`);
  const form = { ...hiddenFields(page.text), email: input.email, password: input.password, action: 'approve', ...override };
  return t.request('POST', '/v2/oauth/authorize', { form, headers: { cookie: cookieOf(page) } });
}

/** The whole browser part: returns the code from the 302. */
export async function authorizeCode(t: TestApp, input: AuthorizeInput): Promise<string> {
  const res = await submitAuthorize(t, input);
  if (res.status !== 302) throw new Error(`authorize did not redirect: ${res.status} ${res.text.slice(0, 500)}`);
  const location = new URL(res.headers.get('location')!);
  const code = location.searchParams.get('code');
  if (!code) throw new Error(`no code in ${location}`);
  return code;
}

export function decodeJwt(token: string): { header: any; payload: any } {
  const [h, p] = token.split('.');
  return { header: JSON.parse(Buffer.from(h, 'base64url').toString()), payload: JSON.parse(Buffer.from(p, 'base64url').toString()) };
}

/**
 * Open the auth invalidation subscription and wait until it is ready: its start clears every auth
 * cache (AuthInvalidationBus), so a test that counts cache hits must not race it.
 */
export async function authInvalidationReady(t: TestApp): Promise<void> {
  const bus = t.app.get(AuthInvalidationBus);
  bus.ensureSubscribed();
  await waitFor(() => (bus as unknown as { subscriber?: { status: string } }).subscriber?.status === 'ready', { what: 'the auth invalidation subscription' });
}
