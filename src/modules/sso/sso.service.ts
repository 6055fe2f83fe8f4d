import { Inject, Injectable, Logger } from '@nestjs/common';
import { recordAdminSignIn } from '../organizations/admin-roles';
import { SAML, ValidateInResponseTo, type CacheProvider } from '@node-saml/node-saml';
import Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { AppConfig, issuerUrl } from '../../core/config/config';
import { scoped } from '../../core/database/scoped';
import { constantTimeEqual, decrypt, randomToken } from '../../core/crypto/crypto';
import { decodeId } from '../../core/ids/ids';
import { REDIS } from '../../core/redis/redis.module';
import { AdminsService } from '../organizations/admins.service';
import { discover, oidc } from './oidc-client';
import { Row, SsoConfigService } from './sso-config.service';
import { signSsoSession, SSO_SESSION_SECONDS, ssoSessionCookie } from './sso-session';

/** A refusal of the sign-in flow, shown to the person as an HTML page with this status. */
export class SsoFailure extends Error {
  constructor(
    readonly status: number,
    readonly title: string,
    message: string,
    readonly returnTo?: string,
  ) {
    super(message);
  }
}

/** What the browser-facing routes answer: a redirect (with cookies) or an HTML body. */
export interface SsoOutcome {
  location?: string;
  status?: number;
  html?: string;
  contentType?: string;
  cookies: string[];
}

const FLOW_COOKIE = 'cp_sso_flow';
const FLOW_SECONDS = 600;
const MAX_RETURN_TO = 4096;

/**
 * Administrator sign-in through the organization's identity provider (CONVENTIONS §19,
 * docs/decisions/identity.md "Single sign-on"): the configuration of `organization_sso` (this
 * module owns the table), and the browser flows: OIDC authorization code with PKCE, state and
 * nonce (openid-client), SAML 2.0 SP-initiated with signed assertions (@node-saml/node-saml).
 * Each flow is bound to the browser that started it (an HttpOnly cookie compared with what the start
 * stored in Redis), each state / request id / assertion / ticket is used once, and the result is
 * the signed SSO session cookie the authorization page reads (sso-session.ts).
 */
@Injectable()
export class SsoService {
  private readonly logger = new Logger(SsoService.name);

  constructor(
    private readonly ds: DataSource,
    private readonly config: AppConfig,
    private readonly admins: AdminsService,
    private readonly settings: SsoConfigService,
    @Inject(REDIS) private readonly redis: Redis,
  ) {}

  private row(orgId: string) {
    return this.settings.row(orgId);
  }

  private urls(orgId: string) {
    return this.settings.urls(orgId);
  }

  // --- the browser flows

  private key(...parts: string[]) {
    return `${this.config.REDIS_PREFIX}:sso:${parts.join(':')}`;
  }

  private secure() {
    return issuerUrl(this.config).startsWith('https:');
  }

  private flowCookie(orgPublicId: string, value: string, maxAge: number) {
    return `${FLOW_COOKIE}=${value}; Path=/auth/sso/${orgPublicId}; Max-Age=${maxAge}; HttpOnly; SameSite=Lax${this.secure() ? '; Secure' : ''}`;
  }

  private async configured(orgPublicId: string): Promise<Row> {
    const org = decodeId('organization', orgPublicId);
    const r = org ? await this.row(org) : null;
    if (!r) throw new SsoFailure(404, 'Single sign-on is not available', 'This organization has not set up sign-in through an identity provider.');
    return r;
  }

  private saml(r: Row): SAML {
    const u = this.urls(r.organization_id);
    const redis = this.redis;
    const key = (id: string) => this.key('saml-request', r.organization_id, id);
    // InResponseTo: the request ids this server sent, each accepted once (node-saml removes it when validating)
    const cacheProvider: CacheProvider = {
      async saveAsync(id, value) {
        await redis.set(key(id), value, 'EX', FLOW_SECONDS);
        return { value, createdAt: Date.now() };
      },
      async getAsync(id) {
        return redis.get(key(id));
      },
      async removeAsync(id) {
        if (!id) return null;
        return redis.getdel(key(id));
      },
    };
    return new SAML({
      callbackUrl: u.acs_url,
      entryPoint: r.settings.idp_sso_url,
      issuer: u.sp_entity_id,
      audience: u.sp_entity_id,
      idpCert: r.settings.idp_certificate,
      idpIssuer: r.settings.idp_entity_id,
      wantAssertionsSigned: true,
      wantAuthnResponseSigned: false,
      validateInResponseTo: ValidateInResponseTo.always,
      requestIdExpirationPeriodMs: FLOW_SECONDS * 1000,
      acceptedClockSkewMs: 60_000,
      maxAssertionAgeMs: 5 * 60_000,
      cacheProvider,
      identifierFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
      disableRequestedAuthnContext: true,
    });
  }

  /** GET /auth/sso/{organization_id}/start?return_to= : to the identity provider. */
  async start(orgPublicId: string, returnTo: unknown): Promise<SsoOutcome> {
    const r = await this.configured(orgPublicId);
    const back = this.checkReturnTo(returnTo);
    const binding = randomToken(24);
    const cookies = [this.flowCookie(orgPublicId, binding, FLOW_SECONDS)];
    if (r.protocol === 'oidc') {
      const config = await this.oidcConfig(r);
      const state = oidc.randomState();
      const nonce = oidc.randomNonce();
      const verifier = oidc.randomPKCECodeVerifier();
      const challenge = await oidc.calculatePKCECodeChallenge(verifier);
      await this.redis.set(this.key('oidc-state', state), JSON.stringify({ o: r.organization_id, n: nonce, v: verifier, r: back, b: binding }), 'EX', FLOW_SECONDS);
      const url = oidc.buildAuthorizationUrl(config, {
        redirect_uri: this.urls(r.organization_id).redirect_uri,
        scope: 'openid email profile',
        state,
        nonce,
        code_challenge: challenge,
        code_challenge_method: 'S256',
      });
      return { location: url.href, cookies };
    }
    const relay = randomToken(24);
    await this.redis.set(this.key('saml-relay', relay), JSON.stringify({ o: r.organization_id, r: back, b: binding }), 'EX', FLOW_SECONDS);
    const url = await this.saml(r).getAuthorizeUrlAsync(relay, undefined, {});
    return { location: url, cookies };
  }

  private checkReturnTo(v: unknown): string {
    if (typeof v !== 'string' || !v.startsWith('/') || v.startsWith('//') || v.includes('\\') || v.length > MAX_RETURN_TO || /[\u0000-\u001f]/.test(v)) {
      throw new SsoFailure(400, 'Invalid request', 'return_to must be a path on this server (normally the authorization page you came from).');
    }
    return v;
  }

  private async oidcConfig(r: Row) {
    try {
      return await discover({ issuer: r.settings.issuer, client_id: r.settings.client_id }, decrypt(this.config.APP_SECRET, r.client_secret_enc ?? ''), this.config.ALLOW_PRIVATE_URLS);
    } catch (e) {
      this.logger.warn({ err: (e as Error).message }, 'OIDC discovery failed');
      throw new SsoFailure(502, 'Identity provider unavailable', "Your organization's identity provider could not be reached. Try again later.");
    }
  }

  private async takeJson<T>(key: string): Promise<T | null> {
    const v = await this.redis.getdel(key);
    if (!v) return null;
    return JSON.parse(v) as T;
  }

  private checkBinding(orgPublicId: string, stored: string, cookie: string | undefined) {
    if (!cookie || !constantTimeEqual(stored, cookie)) {
      throw new SsoFailure(400, 'Sign-in not started here', 'This sign-in was not started in this browser (or its cookie expired). Start again from the sign-in page.');
    }
  }

  /** GET /auth/sso/{organization_id}/oidc/callback */
  async oidcCallback(orgPublicId: string, query: Record<string, unknown>, flowCookie: string | undefined): Promise<SsoOutcome> {
    const r = await this.configured(orgPublicId);
    if (r.protocol !== 'oidc') throw new SsoFailure(400, 'Single sign-on mismatch', 'This organization signs in through SAML, not OpenID Connect.');
    const state = query.state;
    if (typeof state !== 'string' || !state || state.length > 512) throw new SsoFailure(400, 'Invalid sign-in answer', "The identity provider's answer has no state.");
    const flow = await this.takeJson<{ o: string; n: string; v: string; r: string; b: string }>(this.key('oidc-state', state));
    if (!flow || flow.o !== r.organization_id) throw new SsoFailure(400, 'Invalid sign-in answer', 'The sign-in state is unknown, expired or already used. Start again from the sign-in page.');
    this.checkBinding(orgPublicId, flow.b, flowCookie);
    if (typeof query.error === 'string') {
      throw new SsoFailure(403, 'Sign-in refused', `The identity provider refused the sign-in: ${String(query.error_description ?? query.error).slice(0, 300)}`, flow.r);
    }
    const config = await this.oidcConfig(r);
    const current = new URL(this.urls(r.organization_id).redirect_uri);
    for (const [k, v] of Object.entries(query)) if (typeof v === 'string') current.searchParams.set(k, v);
    let claims: Record<string, unknown> | undefined;
    try {
      const tokens = await oidc.authorizationCodeGrant(config, current, { pkceCodeVerifier: flow.v, expectedState: state, expectedNonce: flow.n, idTokenExpected: true });
      const id = tokens.claims()!;
      claims = { ...id };
      // many providers put the email in the UserInfo answer only (the ID token's subject must match it)
      if (typeof id.email !== 'string') claims = { ...(await oidc.fetchUserInfo(config, tokens.access_token, id.sub)) };
    } catch (e) {
      this.logger.warn({ err: (e as Error).message }, 'OIDC callback refused');
      throw new SsoFailure(400, 'Sign-in could not be verified', `The identity provider's answer could not be verified: ${String((e as Error).message).slice(0, 200)}`, flow.r);
    }
    const email = claims?.email;
    if (typeof email !== 'string' || !email || claims?.email_verified !== true) {
      throw new SsoFailure(403, 'No verified email', 'The identity provider did not give a verified email address for you.', flow.r);
    }
    return this.finish(r, 'oidc', email, flow.r, orgPublicId);
  }

  /** POST /auth/sso/{organization_id}/saml/acs (HTTP-POST binding) */
  async samlAcs(orgPublicId: string, body: Record<string, unknown>): Promise<SsoOutcome> {
    const r = await this.configured(orgPublicId);
    if (r.protocol !== 'saml') throw new SsoFailure(400, 'Single sign-on mismatch', 'This organization signs in through OpenID Connect, not SAML.');
    const relayState = body.RelayState;
    const samlResponse = body.SAMLResponse;
    if (typeof samlResponse !== 'string' || !samlResponse || typeof relayState !== 'string' || !relayState || relayState.length > 512) {
      throw new SsoFailure(400, 'Invalid sign-in answer', 'The SAML answer must carry SAMLResponse and RelayState.');
    }
    const flow = await this.takeJson<{ o: string; r: string; b: string }>(this.key('saml-relay', relayState));
    if (!flow || flow.o !== r.organization_id)
      throw new SsoFailure(400, 'Invalid sign-in answer', 'The sign-in state (RelayState) is unknown, expired or already used. Start again from the sign-in page.');
    const acs = this.urls(r.organization_id).acs_url;
    let email: string | undefined;
    try {
      const { profile } = await this.saml(r).validatePostResponseAsync({ SAMLResponse: samlResponse, RelayState: relayState });
      if (!profile) throw new Error('no assertion');
      const assertion = profile.getAssertionXml?.() ?? '';
      // node-saml checks the signature, issuer, audience, validity times and InResponseTo; the recipient and the assertion's single use are checked here
      const recipients = [...assertion.matchAll(/<(?:\w+:)?SubjectConfirmationData\b[^>]*\bRecipient="([^"]*)"/g)].map((m) => m[1].replace(/&amp;/g, '&'));
      if (!recipients.length || recipients.some((x) => x !== acs)) throw new Error(`the assertion's Recipient is not ${acs}`);
      const id = /<(?:\w+:)?Assertion\b[^>]*\bID="([^"]{1,256})"/.exec(assertion)?.[1];
      if (!id) throw new Error('the assertion has no ID');
      const fresh = await this.redis.set(this.key('saml-assertion', r.organization_id, id), '1', 'EX', 24 * 3600, 'NX');
      if (fresh !== 'OK') throw new Error('this assertion was already used');
      const attr = (name: string) => {
        const v = (profile as Record<string, unknown>)[name];
        return typeof v === 'string' ? v : Array.isArray(v) && typeof v[0] === 'string' ? v[0] : undefined;
      };
      email =
        attr('email') ?? attr('mail') ?? attr('http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress') ?? (/^[^@\s]+@[^@\s]+$/.test(profile.nameID ?? '') ? profile.nameID : undefined);
    } catch (e) {
      this.logger.warn({ err: (e as Error).message }, 'SAML response refused');
      throw new SsoFailure(400, 'Sign-in could not be verified', `The identity provider's SAML answer was refused: ${String((e as Error).message).slice(0, 200)}`, flow.r);
    }
    if (!email) throw new SsoFailure(403, 'No email', 'The identity provider did not give an email address for you.', flow.r);
    // the browser check happens on a GET of this server (where the SameSite=Lax flow cookie is sent; a cross-site POST carries none)
    const ticket = randomToken(24);
    await this.redis.set(this.key('saml-ticket', ticket), JSON.stringify({ o: r.organization_id, em: email, r: flow.r, b: flow.b }), 'EX', 120);
    return { location: `/auth/sso/${orgPublicId}/saml/complete?ticket=${ticket}`, status: 303, cookies: [] };
  }

  /** GET /auth/sso/{organization_id}/saml/complete?ticket= : the ACS's answer, taken by the browser that started the sign-in. */
  async samlComplete(orgPublicId: string, ticket: unknown, flowCookie: string | undefined): Promise<SsoOutcome> {
    const r = await this.configured(orgPublicId);
    const t = typeof ticket === 'string' && ticket.length <= 128 ? await this.takeJson<{ o: string; em: string; r: string; b: string }>(this.key('saml-ticket', ticket)) : null;
    if (!t || t.o !== r.organization_id) throw new SsoFailure(400, 'Invalid sign-in answer', 'This sign-in is unknown, expired or already used. Start again from the sign-in page.');
    this.checkBinding(orgPublicId, t.b, flowCookie);
    return this.finish(r, 'saml', t.em, t.r, orgPublicId);
  }

  async metadata(orgPublicId: string): Promise<string> {
    const r = await this.configured(orgPublicId);
    if (r.protocol !== 'saml') throw new SsoFailure(404, 'No SAML metadata', 'This organization signs in through OpenID Connect, not SAML.');
    return this.saml(r).generateServiceProviderMetadata(null, null);
  }

  /** The identity provider's email names the administrator of this organization; just-in-time creation when on. */
  private async finish(r: Row, method: 'oidc' | 'saml', rawEmail: string, returnTo: string, orgPublicId: string): Promise<SsoOutcome> {
    const email = rawEmail.trim().toLowerCase();
    if (email.length > 320) throw new SsoFailure(403, 'Not an administrator', 'The email address given by the identity provider is not valid.', returnTo);
    const rows = await scoped(this.ds, r.organization_id).query<{ id: string }[]>(`SELECT id FROM admins WHERE organization_id = $org AND lower(email) = $1`, [email]);
    let adminId = rows[0]?.id;
    if (!adminId) {
      if (!r.jit) {
        throw new SsoFailure(403, 'Not an administrator', `${email} is not an administrator of this organization. Ask an owner to add you.`, returnTo);
      }
      const created = await this.admins.createForSso(r.organization_id, email, r.default_role);
      if (!created) throw new SsoFailure(403, 'Not an administrator', `${email} cannot be made an administrator of this organization.`, returnTo);
      adminId = created.id;
    }
    await recordAdminSignIn(this.ds, r.organization_id, adminId);
    const session = signSsoSession(this.config.APP_SECRET, { a: adminId, o: r.organization_id, m: method, em: email, e: Math.floor(Date.now() / 1000) + SSO_SESSION_SECONDS, j: randomToken(16) });
    return {
      location: returnTo,
      status: 302,
      cookies: [ssoSessionCookie(session, SSO_SESSION_SECONDS, this.secure()), this.flowCookie(orgPublicId, '', 0)],
    };
  }
}
