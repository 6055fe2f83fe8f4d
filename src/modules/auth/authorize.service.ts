import { Inject, Injectable, Logger } from '@nestjs/common';
import * as argon2 from 'argon2';
import Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { scoped, unscoped } from '../../core/database/scoped';
import { AuthService } from '../../core/auth/auth.service';
import { AppConfig, issuerUrl } from '../../core/config/config';
import { constantTimeEqual, randomToken, sha256, signPayload, verifyPayload } from '../../core/crypto/crypto';
import { REDIS } from '../../core/redis/redis.module';
import { ARGON2_OPTIONS } from '../organizations/organizations.service';
import { adminAllowedScopes, narrowTo, recordAdminSignIn } from '../organizations/admin-roles';
import { SsoConfigService } from '../sso/sso-config.service';
import { readSsoSession, SSO_SESSION_COOKIE, SsoSession, spentSessionKey, ssoSessionCookie } from '../sso/sso-session';
import { errorPage, readCookie } from '../../core/http/html-page';
import { consentPage } from './authorize.page';
import { ClientMetadataDocuments, ClientMetadataError } from './client-metadata-documents';
import { ClientsService } from './clients.service';
import { AuthCode, OAuthClient } from './oauth.entities';

/** The parameters of an authorization request (RFC 6749 4.1.1, RFC 7636 4.3). */
export const AUTHORIZE_PARAMS = ['response_type', 'client_id', 'redirect_uri', 'scope', 'state', 'code_challenge', 'code_challenge_method'] as const;
type ParamName = (typeof AUTHORIZE_PARAMS)[number];
type Params = Partial<Record<ParamName, string>>;

/** What the controller sends: an HTML page, or a 302 to the client. */
export type AuthorizeOutcome =
  { kind: 'page'; status: number; html: string; redirectOrigin?: string; setCookie?: string | string[]; retryAfter?: number } | { kind: 'redirect'; location: string; setCookie?: string | string[] };

/** The cookie half of the CSRF double submit; the other half is the signed hidden field. */
export const CSRF_COOKIE = 'cp_authorize';
const CSRF_PURPOSE = 'oauth-authorize-form';
/** How long a rendered sign-in form may be submitted. */
const FORM_TTL_SECONDS = 900;
const MAX_PARAM_LENGTH = 2048;
const MAX_STATE_LENGTH = 1024;
const CHALLENGE = /^[A-Za-z0-9_-]{43}$/;
/** Failed sign-ins allowed per client IP in the window before the form refuses to check passwords. */
export const SIGNIN_FAILURE_LIMIT = 10;
const SIGNIN_FAILURE_WINDOW_SECONDS = 900;

interface ValidRequest {
  client: OAuthClient;
  redirectUri: string;
  scopes: string[];
  state?: string;
  codeChallenge: string;
  params: Params;
}

interface FormToken {
  /** hash of the bound request parameters */
  h: string;
  /** nonce, equal to the cookie */
  n: string;
  /** expiry, epoch seconds */
  e: number;
}

/** Thrown inside the service to answer at once with an outcome. */
class Answer {
  constructor(readonly outcome: AuthorizeOutcome) {}
}

/** A parameter given more than once (an array), or not as text, or overlong. */
const INVALID = Symbol('invalid');

/**
 * The authorization endpoint: validates the request (an unknown client or a redirect_uri that is
 * not registered never redirects), shows the sign-in and consent page to an organization
 * administrator, and on approval issues a single-use, hashed, short-lived code bound to the
 * administrator's organization, the client, the redirect_uri, the scopes and the PKCE challenge.
 */
@Injectable()
export class AuthorizeService {
  private readonly logger = new Logger(AuthorizeService.name);
  private dummyHash?: Promise<string>;

  constructor(
    private readonly ds: DataSource,
    private readonly config: AppConfig,
    private readonly clients: ClientsService,
    private readonly auth: AuthService,
    @Inject(REDIS) private readonly redis: Redis,
    private readonly documents: ClientMetadataDocuments,
    private readonly sso: SsoConfigService,
  ) {}

  async show(query: Record<string, unknown>, cookieHeader?: string): Promise<AuthorizeOutcome> {
    try {
      const req = await this.validate(query);
      return await this.form(req, 200, undefined, undefined, this.ssoSession(cookieHeader));
    } catch (e) {
      if (e instanceof Answer) return e.outcome;
      throw e;
    }
  }

  async submit(body: Record<string, unknown>, cookieHeader: string | undefined, ip: string): Promise<AuthorizeOutcome> {
    try {
      const req = await this.validate(body);
      if (!this.checkFormToken(req.params, body.csrf_token, readCookie(cookieHeader, CSRF_COOKIE))) {
        return this.form(req, 403, 'This form has expired or was not sent from this page. Please sign in again.');
      }
      if (body.action === 'deny') return this.redirectError(req, 'access_denied', 'The administrator denied the request.', true);
      const session = this.ssoSession(cookieHeader);
      if (body.action === 'sso') return await this.toIdentityProvider(req, body.email);
      if (body.sso === '1' && body.action === 'approve') {
        // signed in through the organization's identity provider (modules/sso): the session is spent by this approval
        if (!session) return this.form(req, 403, 'Your sign-in through your identity provider has expired. Please sign in again.');
        const fresh = await this.redis.set(spentSessionKey(this.config.REDIS_PREFIX, session.j), '1', 'EX', 3600, 'NX');
        if (fresh !== 'OK') return this.form(req, 403, 'This sign-in through your identity provider was already used. Please sign in again.');
        const code = await this.issueCode(req, { id: session.a, organizationId: session.o });
        return {
          kind: 'redirect',
          location: this.redirectUrl(req.redirectUri, { code, state: req.state, iss: issuerUrl(this.config) }),
          setCookie: [this.cookie('', 0), ssoSessionCookie('', 0, this.secureCookies())],
        };
      }
      const email = typeof body.email === 'string' ? body.email.trim() : '';
      const password = typeof body.password === 'string' ? body.password : '';
      if (!email || !password) return this.form(req, 400, 'Enter your email address and password.', email);
      const lockedFor = await this.lockoutSeconds(ip);
      if (lockedFor > 0) {
        return { ...(await this.form(req, 429, 'Too many failed sign-in attempts from your address. Try again in a few minutes.', email)), retryAfter: lockedFor };
      }
      const admin = await this.checkPassword(email, password);
      if (!admin) {
        await this.recordFailure(ip);
        return this.form(req, 200, 'The email address or password is incorrect.', email);
      }
      const code = await this.issueCode(req, admin);
      return {
        kind: 'redirect',
        location: this.redirectUrl(req.redirectUri, { code, state: req.state, iss: issuerUrl(this.config) }),
        setCookie: this.cookie('', 0),
      };
    } catch (e) {
      if (e instanceof Answer) return e.outcome;
      throw e;
    }
  }

  /** Checks in RFC 6749 order: client and redirect_uri first (error page), then the rest (redirect with error). */
  private async validate(raw: Record<string, unknown>): Promise<ValidRequest> {
    const read = (name: ParamName): string | undefined | typeof INVALID => {
      const v = raw[name];
      if (v === undefined || v === null) return undefined;
      if (typeof v !== 'string' || v.length > MAX_PARAM_LENGTH) return INVALID;
      return v;
    };
    const clientId = read('client_id');
    if (typeof clientId !== 'string' || !clientId) throw this.errorPage(400, 'Invalid request', 'The request names no client, or names it more than once.');
    // a URL client_id: the client's metadata document (client-metadata-documents.ts), fetched and kept
    let client: OAuthClient | null;
    if (this.documents.isDocumentUrl(clientId)) {
      try {
        client = await this.documents.resolve(clientId);
      } catch (e) {
        if (e instanceof ClientMetadataError) throw this.errorPage(400, 'Unknown application', e.message);
        throw e;
      }
    } else {
      client = await this.clients.findByClientId(clientId);
    }
    if (!client || !client.isActive) throw this.errorPage(400, 'Unknown application', 'No active application is registered with this client_id.');
    const redirectUri = read('redirect_uri');
    if (typeof redirectUri !== 'string' || !client.redirectUris.includes(redirectUri)) {
      throw this.errorPage(400, 'Invalid redirect URI', 'The redirect_uri is missing or is not one registered for this application.');
    }

    const params: Params = {};
    let invalid: ParamName | undefined;
    for (const name of AUTHORIZE_PARAMS) {
      const v = read(name);
      if (v === INVALID) invalid ??= name;
      else if (v !== undefined) params[name] = v;
    }
    const state = params.state !== undefined && params.state.length <= MAX_STATE_LENGTH ? params.state : undefined;
    const fail = (error: string, description: string) => new Answer(this.redirectError({ redirectUri, state }, error, description));
    if (invalid) throw fail('invalid_request', `${invalid} must be given once, as text of at most ${MAX_PARAM_LENGTH} characters.`);
    if (params.state !== undefined && state === undefined) throw fail('invalid_request', `state must be at most ${MAX_STATE_LENGTH} characters.`);

    const responseType = params.response_type;
    if (!responseType) throw fail('invalid_request', 'response_type is required.');
    if (responseType !== 'code') throw fail('unsupported_response_type', 'Only response_type=code is supported.');
    if (!client.grantTypes.includes('authorization_code') || !client.responseTypes.includes('code')) {
      throw fail('unauthorized_client', 'This client may not use the authorization code grant.');
    }
    if (!params.code_challenge) throw fail('invalid_request', 'code_challenge is required (PKCE with S256).');
    if (params.code_challenge_method !== 'S256') throw fail('invalid_request', 'code_challenge_method must be S256.');
    if (!CHALLENGE.test(params.code_challenge)) throw fail('invalid_request', 'code_challenge must be a base64url SHA-256 digest (43 characters).');

    let scopes: string[];
    const asked = params.scope?.split(' ').filter(Boolean) ?? [];
    if (asked.length === 0) {
      scopes = [...client.scopes];
      if (!scopes.length) throw fail('invalid_scope', 'This client has no scopes to grant.');
    } else {
      const extra = asked.filter((s) => !client.scopes.includes(s));
      if (extra.length) throw fail('invalid_scope', `Scopes unknown or not registered for this client: ${extra.join(' ')}.`);
      scopes = [...new Set(asked)];
    }
    return { client, redirectUri, scopes, state, codeChallenge: params.code_challenge, params };
  }

  private errorPage(status: number, title: string, message: string): Answer {
    return new Answer({ kind: 'page', status, html: errorPage(title, message) });
  }

  private redirectUrl(uri: string, params: Record<string, string | undefined>): string {
    const query = new URLSearchParams();
    for (const [k, v] of Object.entries(params)) if (v !== undefined) query.append(k, v);
    const sep = uri.includes('?') ? (uri.endsWith('?') || uri.endsWith('&') ? '' : '&') : '?';
    return `${uri}${sep}${query.toString()}`;
  }

  private redirectError(req: Pick<ValidRequest, 'redirectUri' | 'state'>, error: string, description: string, clearCookie = false): AuthorizeOutcome {
    return {
      kind: 'redirect',
      location: this.redirectUrl(req.redirectUri, { error, error_description: description, state: req.state, iss: issuerUrl(this.config) }),
      ...(clearCookie ? { setCookie: this.cookie('', 0) } : {}),
    };
  }

  // --- CSRF: a signed hidden field binding the request parameters and a nonce that must equal a cookie.

  private paramsHash(params: Params): string {
    return sha256(JSON.stringify(AUTHORIZE_PARAMS.map((p) => params[p] ?? null))).toString('base64url');
  }

  private secureCookies(): boolean {
    return issuerUrl(this.config).startsWith('https:');
  }

  private ssoSession(cookieHeader: string | undefined): SsoSession | null {
    return readSsoSession(this.config.APP_SECRET, readCookie(cookieHeader, SSO_SESSION_COOKIE));
  }

  /** The authorization request as a path on this server: where single sign-on comes back to. */
  private returnPath(req: ValidRequest): string {
    const q = new URLSearchParams();
    for (const name of AUTHORIZE_PARAMS) if (req.params[name] !== undefined) q.append(name, req.params[name]!);
    return `/v2/oauth/authorize?${q.toString()}`;
  }

  /**
   * "Sign in with your identity provider" with an email: the organization of the administrator with
   * that email, when it has single sign-on, else the organization the application belongs to.
   */
  private async toIdentityProvider(req: ValidRequest, rawEmail: unknown): Promise<AuthorizeOutcome> {
    const email = typeof rawEmail === 'string' ? rawEmail.trim().slice(0, 320) : '';
    let orgId: string | null = req.client.organizationId ?? null;
    if (email) {
      const rows: { organization_id: string }[] = await unscoped(this.ds, 'an administrator is found by e-mail at sign-in, before the organization is known').query(
        `SELECT organization_id FROM admins WHERE lower(email) = lower($1)`,
        [email],
      );
      if (rows[0]) orgId = rows[0].organization_id;
    }
    const url = orgId ? await this.sso.loginUrl(orgId, this.returnPath(req)) : null;
    if (!url) return this.form(req, 200, 'No identity provider is set up for this email address. Sign in with your password.', email);
    return { kind: 'redirect', location: url };
  }

  private cookie(value: string, maxAge: number): string {
    const secure = this.secureCookies() ? '; Secure' : '';
    return `${CSRF_COOKIE}=${value}; Path=/v2/oauth/authorize; Max-Age=${maxAge}; HttpOnly; SameSite=Lax${secure}`;
  }

  private checkFormToken(params: Params, token: unknown, cookieNonce: string | undefined): boolean {
    const t = verifyPayload<FormToken>(this.config.APP_SECRET, CSRF_PURPOSE, token);
    if (!t || typeof t.h !== 'string' || typeof t.n !== 'string' || typeof t.e !== 'number') return false;
    if (t.e * 1000 <= Date.now()) return false;
    if (!cookieNonce || !constantTimeEqual(t.n, cookieNonce)) return false;
    return constantTimeEqual(t.h, this.paramsHash(params));
  }

  private async form(req: ValidRequest, status: number, error?: string, email?: string, session?: SsoSession | null): Promise<Extract<AuthorizeOutcome, { kind: 'page' }>> {
    const ssoUrl = !session && req.client.organizationId ? await this.sso.loginUrl(req.client.organizationId, this.returnPath(req)) : null;
    const nonce = randomToken(16);
    const csrf = signPayload(this.config.APP_SECRET, CSRF_PURPOSE, {
      h: this.paramsHash(req.params),
      n: nonce,
      e: Math.floor(Date.now() / 1000) + FORM_TTL_SECONDS,
    } satisfies FormToken);
    return {
      kind: 'page',
      status,
      html: consentPage({
        clientName: req.client.name,
        clientId: req.client.clientId,
        redirectUri: req.redirectUri,
        scopes: req.scopes,
        hidden: req.params,
        csrf,
        email,
        error,
        ssoEmail: session?.em,
        ssoUrl: ssoUrl ?? undefined,
      }),
      redirectOrigin: cspOrigin(req.redirectUri),
      setCookie: this.cookie(nonce, FORM_TTL_SECONDS),
    };
  }

  // --- sign-in and code issuance

  /** Failed sign-ins per IP, counted in Redis (shared by every API instance); fails open like the rate limits. */
  private failureKey(ip: string) {
    return `${this.config.REDIS_PREFIX}:authorize-failures:${ip}`;
  }

  /**
   * 0 when the address may sign in; otherwise the seconds until its lockout ends (the failure
   * counter's remaining time to live, at least 1), sent as the 429's Retry-After.
   */
  private async lockoutSeconds(ip: string): Promise<number> {
    try {
      const key = this.failureKey(ip);
      const replies = await this.redis.multi().get(key).pttl(key).exec();
      const failed = replies?.find(([err]) => err);
      if (!replies || failed) throw failed?.[0] ?? new Error('the transaction was discarded');
      const count = Number(replies[0][1]);
      const ttl = Number(replies[1][1]);
      if (count < SIGNIN_FAILURE_LIMIT) return 0;
      if (ttl < 0) {
        // a counter left without expiry (its EXPIRE lost): the window starts over now rather than never ending
        await this.redis.expire(key, SIGNIN_FAILURE_WINDOW_SECONDS);
        return SIGNIN_FAILURE_WINDOW_SECONDS;
      }
      return Math.max(1, Math.ceil(ttl / 1000));
    } catch (err) {
      this.logger.warn({ err: (err as Error).message }, 'sign-in failure counter unavailable');
      return 0;
    }
  }

  private async recordFailure(ip: string): Promise<void> {
    try {
      const key = this.failureKey(ip);
      if ((await this.redis.incr(key)) === 1) await this.redis.expire(key, SIGNIN_FAILURE_WINDOW_SECONDS);
    } catch (err) {
      this.logger.warn({ err: (err as Error).message }, 'sign-in failure counter unavailable');
    }
  }

  /** argon2id check; an unknown email still costs one verification so timing does not reveal it. */
  private async checkPassword(email: string, password: string): Promise<{ id: string; organizationId: string } | null> {
    if (email.length > 320 || password.length > 1024) return null;
    const rows: { id: string; organization_id: string; password_hash: string }[] = await unscoped(this.ds, 'an administrator is found by e-mail at sign-in, before the organization is known').query(
      `SELECT id, organization_id, password_hash FROM admins WHERE lower(email) = lower($1)`,
      [email],
    );
    const hash = rows[0]?.password_hash ?? (await (this.dummyHash ??= argon2.hash(randomToken(), ARGON2_OPTIONS)));
    let ok = false;
    try {
      ok = await argon2.verify(hash, password);
    } catch {
      ok = false;
    }
    return ok && rows[0] ? { id: rows[0].id, organizationId: rows[0].organization_id } : null;
  }

  private async issueCode(req: ValidRequest, admin: { id: string; organizationId: string }): Promise<string> {
    const code = `cpc_${randomToken(32)}`;
    await this.ds.transaction(async (m) => {
      // A dynamically registered client joins the organization of the first administrator who authorizes it.
      await scoped(m, admin.organizationId).query(`UPDATE oauth_clients SET organization_id = $org, updated_at = date_trunc('milliseconds', now()) WHERE id = $1 AND organization_id IS NULL`, [
        req.client.id,
      ]);
      const [row]: { organization_id: string | null; is_active: boolean }[] = await unscoped(m, "the client's organization is what this checks").query(
        `SELECT organization_id, is_active FROM oauth_clients WHERE id = $1 FOR SHARE`,
        [req.client.id],
      );
      if (!row?.is_active) throw this.errorPage(400, 'Unknown application', 'No active application is registered with this client_id.');
      if (row.organization_id !== admin.organizationId) {
        throw this.errorPage(403, 'Not available to your organization', 'This application is registered with another organization; an administrator of your organization cannot authorize it.');
      }
      // The token holds at most the approving administrator's role (CONVENTIONS §19): the scopes asked, narrowed to the role's
      const allowed = (await adminAllowedScopes(m, admin.organizationId, admin.id)) ?? [];
      const scopes = narrowTo(req.scopes, allowed);
      if (!scopes.length) throw new Answer(this.redirectError(req, 'access_denied', "The administrator's role grants none of the scopes this application asks for.", true));
      await recordAdminSignIn(m, admin.organizationId, admin.id);
      await m.insert(AuthCode, {
        codeHash: sha256(code),
        clientId: req.client.id,
        organizationId: admin.organizationId,
        adminId: admin.id,
        redirectUri: req.redirectUri,
        codeChallenge: req.codeChallenge,
        scope: scopes.join(' '),
        expiresAt: new Date(Date.now() + this.config.AUTH_CODE_TTL * 1000),
        usedAt: null,
        familyId: null,
      });
    });
    this.auth.forgetClient(req.client.id);
    return code;
  }
}

/** The redirect_uri's origin for the CSP form-action, when it is a plain scheme://host[:port]. */
function cspOrigin(uri: string): string | undefined {
  try {
    const origin = new URL(uri).origin;
    return /^https?:\/\/[A-Za-z0-9.\-[\]:]+$/.test(origin) ? origin : undefined;
  } catch {
    return undefined;
  }
}
