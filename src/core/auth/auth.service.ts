import { Injectable } from '@nestjs/common';
import * as jwt from 'jsonwebtoken';
import { createHmac, createPrivateKey, KeyObject, randomBytes, randomUUID, sign as cryptoSign } from 'node:crypto';
import { ExtractJwt, Strategy as JwtStrategy } from 'passport-jwt';
import { DataSource } from 'typeorm';
import { AppConfig, issuerUrl } from '../config/config';
import { constantTimeEqual, sha256 } from '../crypto/crypto';
import { isDatabaseUnavailable } from '../database/unavailable';
import { unauthorized } from '../http/api-error';
import { AuthInvalidationBus } from './invalidation';
import { KeysService } from './keys.service';
import type { Principal } from './principal';
import { ALL_SCOPES } from './scopes';
import { unscoped } from '../database/scoped';

interface Cached<T> {
  value: T;
  until: number;
}

/** A small bounded TTL cache; cleared wholesale when full (the working set is small). */
class TtlCache<T> {
  private map = new Map<string, Cached<T>>();
  constructor(private readonly max = 20000) {}
  get(key: string): T | undefined {
    const hit = this.map.get(key);
    if (!hit) return undefined;
    if (hit.until < Date.now()) {
      this.map.delete(key);
      return undefined;
    }
    return hit.value;
  }
  set(key: string, value: T, ttlMs: number) {
    if (ttlMs <= 0) return; // caching off (AUTH_CACHE_SECONDS=0): not even within the same millisecond
    if (this.map.size >= this.max) this.map.clear();
    this.map.set(key, { value, until: Date.now() + ttlMs });
  }
  delete(key: string) {
    this.map.delete(key);
  }
  clear() {
    this.map.clear();
  }
}

export interface AccessClaims {
  iss: string;
  sub: string;
  client_id: string;
  org: string;
  scope: string;
  iat: number;
  exp: number;
  jti: string;
  /** internal client uuid */
  cid: string;
  /** refresh-token family, when the token came from the code flow or a refresh */
  fid?: string;
  /** the audience: the API's base URL (see `audience()`); absent only in tokens issued before aud existed */
  aud?: string | string[];
}

const invalidToken = (detail: string) =>
  unauthorized(detail, { headers: { 'WWW-Authenticate': 'Bearer error="invalid_token"' } });

/**
 * Authenticates callers: Bearer JWTs (verified through passport-jwt's strategy, then cached until
 * shortly before they expire) and, on /v1, organization API keys by HTTP Basic. Client state and
 * refresh-token families are re-read from the database at most every AUTH_CACHE_SECONDS, so the hot
 * path makes no query; a change to a client or a revoked family drops the cached state at once in
 * every API process (AuthInvalidationBus), within AUTH_CACHE_SECONDS when Redis is unreachable. The
 * token endpoint's client verification is cached the same way (verifiedClient).
 */
@Injectable()
export class AuthService {
  private readonly tokens = new TtlCache<AccessClaims>();
  private readonly clientActive = new TtlCache<{ active: boolean; organizationId: string | null }>();
  private readonly familyRevoked = new TtlCache<boolean>();
  private readonly apiKeys = new TtlCache<string | null>();
  private readonly strategy: JwtStrategy;

  /**
   * Clients whose secret was verified at the token endpoint, by client_id: the client row and a keyed
   * hash (HMAC-SHA256 under a random per-process key) of the secret that was accepted, never the
   * secret. A request presenting the same client_id and secret within AUTH_CACHE_SECONDS is answered
   * from here; any other secret goes to the database. Dropped at once on any change of the client
   * (forgetClient: this process directly, the others through AuthInvalidationBus).
   */
  private readonly verifiedClients = new TtlCache<{ mac: Buffer; uuid: string; client: unknown }>();
  /** uuid -> client_id of the entries above (to drop them by the uuid the writers know) */
  private readonly verifiedClientIds = new Map<string, string>();
  private readonly secretMacKey = randomBytes(32);
  /** Bumped by every invalidation: a lookup that read the database before one may not cache what it read. */
  private invalidations = 0;

  constructor(
    private readonly ds: DataSource,
    private readonly config: AppConfig,
    private readonly keys: KeysService,
    private readonly bus: AuthInvalidationBus,
  ) {
    bus.onMessage((m) => {
      if (m.all) this.forgetAllLocally();
      if (m.client) this.forgetClientLocally(m.client);
      if (m.family) {
        this.invalidations++;
        this.familyRevoked.delete(m.family);
      }
    });
    this.strategy = new JwtStrategy(
      {
        jwtFromRequest: ExtractJwt.fromAuthHeaderAsBearerToken(),
        secretOrKeyProvider: (_req: unknown, raw: string, done: (err: unknown, key?: any) => void) => {
          const header = jwt.decode(raw, { complete: true })?.header;
          if (!header?.kid || header.alg !== 'ES256') return done(null, undefined);
          this.keys.publicKey(header.kid).then((k) => done(null, k ?? undefined), done);
        },
        algorithms: ['ES256'],
        issuer: issuerUrl(this.config),
        jsonWebTokenOptions: { clockTolerance: 0 },
      },
      (payload: AccessClaims, done: (err: unknown, user?: unknown) => void) => done(null, payload),
    );
  }

  /** Tokens without `aud` are accepted only when issued before this process started (older versions issued them). */
  private readonly bootedAt = Date.now();

  /**
   * The audience of every access token: the API's base URL, the same value as the issuer. One
   * resource server covers /v1, /v2 and (later) /mcp, which all live under that URL, so one token
   * serves all of them; a token whose `aud` names anything else is refused.
   */
  audience(): string {
    return issuerUrl(this.config);
  }

  private get cacheMs() {
    return this.config.AUTH_CACHE_SECONDS * 1000;
  }

  /**
   * The parsed current signing key and its encoded JWS header: parsing the PEM on every token cost
   * more than signing, and jsonwebtoken's generic path (option checks, jws streams) about as much
   * as the ECDSA signature itself.
   */
  private signer?: { pem: string; key: KeyObject; header: string };

  /**
   * An ES256 JWT (RFC 7515 compact form, RFC 7518 section 3.4: the raw 64-byte r||s signature),
   * the same token jsonwebtoken made: header {alg, typ, kid}; claims plus jti, iat, exp, aud, iss.
   */
  signAccessToken(claims: Omit<AccessClaims, 'iss' | 'iat' | 'exp' | 'jti' | 'aud'>): { token: string; expiresIn: number } {
    const { kid, privatePem } = this.keys.signingKey();
    if (this.signer?.pem !== privatePem) {
      const header = Buffer.from(JSON.stringify({ alg: 'ES256', typ: 'JWT', kid })).toString('base64url');
      this.signer = { pem: privatePem, key: createPrivateKey(privatePem), header };
    }
    const expiresIn = this.config.ACCESS_TOKEN_TTL;
    const iat = Math.floor(Date.now() / 1000);
    const payload = { ...claims, jti: randomUUID(), iat, exp: iat + expiresIn, aud: this.audience(), iss: issuerUrl(this.config) };
    const input = `${this.signer.header}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}`;
    const signature = cryptoSign('sha256', Buffer.from(input), { key: this.signer.key, dsaEncoding: 'ieee-p1363' });
    return { token: `${input}.${signature.toString('base64url')}`, expiresIn };
  }

  /** Runs passport-jwt's strategy against a bare request carrying the token. */
  private verifyWithStrategy(token: string): Promise<AccessClaims> {
    return new Promise((resolve, reject) => {
      const s: any = Object.create(this.strategy);
      s.success = (user: AccessClaims) => resolve(user);
      // passport-jwt reports a key lookup that failed (database down) as a failure: that is a 503, not a 401
      s.fail = (info: any) =>
        reject(isDatabaseUnavailable(info) ? info : invalidToken(info?.message === 'jwt expired' ? 'The access token has expired.' : 'The access token is invalid.'));
      s.error = (err: unknown) => reject(err);
      s.authenticate({ headers: { authorization: `Bearer ${token}` } }, {});
    });
  }

  async verifyAccessToken(token: string): Promise<AccessClaims> {
    let claims = this.tokens.get(token);
    if (!claims) {
      claims = await this.verifyWithStrategy(token);
      if (!claims.org || !claims.cid || typeof claims.scope !== 'string') throw invalidToken('The access token is invalid.');
      if (!this.audienceOk(claims)) throw invalidToken('The access token is not meant for this API (aud).');
      const ttl = Math.min(claims.exp * 1000 - Date.now(), 60_000);
      if (ttl > 0) this.tokens.set(token, claims, ttl);
    } else if (claims.exp * 1000 <= Date.now()) {
      this.tokens.delete(token);
      throw invalidToken('The access token has expired.');
    }
    return claims;
  }

  /** `aud` must name this API (a string, or an array containing it); see `bootedAt` for tokens without one. */
  private audienceOk(claims: AccessClaims): boolean {
    const aud = claims.aud;
    if (aud === undefined) return typeof claims.iat === 'number' && claims.iat * 1000 < this.bootedAt;
    const expected = this.audience();
    return typeof aud === 'string' ? aud === expected : Array.isArray(aud) && aud.includes(expected);
  }

  async authenticate(authorization: string | undefined, allowApiKey: boolean): Promise<Principal> {
    return this.authenticateFast(authorization, allowApiKey);
  }

  /**
   * authenticate() without a promise when everything it needs is cached (the usual case: a token
   * seen within the last minute, its client and family state within AUTH_CACHE_SECONDS); a promise
   * otherwise. Same answers and same errors (thrown, or as the promise's rejection). The global
   * guard calls this: each promise costs an async-hook round when request logging context
   * (AsyncLocalStorage) is on, and a cached authentication made seven of them.
   */
  authenticateFast(authorization: string | undefined, allowApiKey: boolean): Principal | Promise<Principal> {
    // RFC 6750 section 3.1: a request without credentials gets the challenge without an error code
    if (!authorization) throw unauthorized('Authentication credentials were not provided.', { headers: { 'WWW-Authenticate': 'Bearer' } });
    const space = authorization.indexOf(' ');
    const scheme = space > 0 ? authorization.slice(0, space).toLowerCase() : '';
    const value = space > 0 ? authorization.slice(space + 1).trim() : '';
    if (scheme === 'bearer' && value) return this.cachedPrincipal(value) ?? this.fromToken(value);
    if (scheme === 'basic' && allowApiKey && value) return this.fromApiKey(value);
    throw invalidToken('Unsupported or malformed Authorization header.');
  }

  /**
   * The principal of a token whose claims, client state and family state are all cached and
   * acceptable; undefined whenever anything is missing or would be refused (fromToken then decides,
   * with the same checks, and gives the error).
   */
  private cachedPrincipal(token: string): Principal | undefined {
    const claims = this.tokens.get(token);
    if (!claims || claims.exp * 1000 <= Date.now()) return undefined;
    const client = this.clientActive.get(claims.cid);
    if (!client || !client.active || client.organizationId !== claims.org) return undefined;
    if (claims.fid && this.familyRevoked.get(claims.fid) !== false) return undefined;
    return this.principalOf(claims);
  }

  private principalOf(claims: AccessClaims): Principal {
    return {
      organizationId: claims.org,
      clientId: claims.cid,
      subject: claims.sub,
      scopes: this.scopeSet(claims.scope),
      kind: 'token',
      familyId: claims.fid,
    };
  }

  /** Scope strings parsed once (a token's scope is the same string on every request). */
  private readonly scopeSets = new Map<string, ReadonlySet<string>>();
  private scopeSet(scope: string): ReadonlySet<string> {
    let set = this.scopeSets.get(scope);
    if (!set) {
      if (this.scopeSets.size >= 1000) this.scopeSets.clear();
      set = new Set(scope.split(' ').filter(Boolean));
      this.scopeSets.set(scope, set);
    }
    return set;
  }

  private async fromToken(token: string): Promise<Principal> {
    const claims = await this.verifyAccessToken(token);
    const client = await this.clientState(claims.cid);
    if (!client.active || client.organizationId !== claims.org) throw invalidToken('The client of this token is deactivated.');
    if (claims.fid && (await this.isFamilyRevoked(claims.fid))) throw invalidToken('The access token has been revoked.');
    return this.principalOf(claims);
  }

  /** An organization API key (HTTP Basic user name); no promise when its lookup is cached. */
  private fromApiKey(basic: string): Principal | Promise<Principal> {
    let decoded: string;
    try {
      decoded = Buffer.from(basic, 'base64').toString('utf8');
    } catch {
      throw invalidToken('Malformed Basic credentials.');
    }
    const key = decoded.split(':', 1)[0];
    if (!key) throw invalidToken('Malformed Basic credentials.');
    const hash = sha256(key);
    const cacheKey = hash.toString('base64');
    const orgId = this.apiKeys.get(cacheKey);
    if (orgId !== undefined) return this.apiKeyPrincipal(orgId);
    return this.lookUpApiKey(hash, cacheKey);
  }

  private async lookUpApiKey(hash: Buffer, cacheKey: string): Promise<Principal> {
    const rows = await unscoped(this.ds, 'an API key is looked up by its hash').query(`SELECT organization_id, key_hash FROM api_keys WHERE key_hash = $1 AND revoked_at IS NULL`, [hash]);
    const orgId = rows.length && constantTimeEqual(rows[0].key_hash, hash) ? (rows[0].organization_id as string) : null;
    this.apiKeys.set(cacheKey, orgId, this.cacheMs);
    return this.apiKeyPrincipal(orgId);
  }

  private apiKeyPrincipal(orgId: string | null): Principal {
    if (!orgId) throw invalidToken('Invalid API key.');
    return { organizationId: orgId, clientId: null, subject: `api-key`, scopes: ALL_SCOPES, kind: 'api_key' };
  }

  async clientState(clientUuid: string): Promise<{ active: boolean; organizationId: string | null }> {
    let state = this.clientActive.get(clientUuid);
    if (!state) {
      const startedAt = this.invalidations;
      const rows = await unscoped(this.ds, 'the client of a verified token, before its organization is known').query(`SELECT is_active, organization_id FROM oauth_clients WHERE id = $1`, [clientUuid]);
      state = rows.length ? { active: rows[0].is_active as boolean, organizationId: rows[0].organization_id as string | null } : { active: false, organizationId: null };
      if (startedAt === this.invalidations) {
        if (this.cacheMs > 0) this.bus.ensureSubscribed();
        this.clientActive.set(clientUuid, state, this.cacheMs);
      }
    }
    return state;
  }

  async isFamilyRevoked(familyId: string): Promise<boolean> {
    let revoked = this.familyRevoked.get(familyId);
    if (revoked === undefined) {
      const startedAt = this.invalidations;
      const rows = await unscoped(this.ds, 'the family of a verified token, by its id').query(`SELECT revoked_at FROM token_families WHERE id = $1`, [familyId]);
      revoked = !rows.length || rows[0].revoked_at !== null;
      if (startedAt === this.invalidations) {
        if (this.cacheMs > 0) this.bus.ensureSubscribed();
        this.familyRevoked.set(familyId, revoked, this.cacheMs);
      }
    }
    return revoked;
  }

  /** A keyed hash of a client's secret, for the verified-clients cache (the secret itself is never kept). */
  private secretMac(clientId: string, secret: string): Buffer {
    return createHmac('sha256', this.secretMacKey).update(clientId).update('\0').update(secret).digest();
  }

  /**
   * The client row cached by rememberVerifiedClient for this exact client_id and secret, or
   * undefined (never cached, expired, invalidated, or another secret: the caller then reads the
   * database and verifies there).
   */
  verifiedClient<T>(clientId: string, secret: string): T | undefined {
    const hit = this.verifiedClients.get(clientId);
    if (!hit) return undefined;
    return constantTimeEqual(hit.mac, this.secretMac(clientId, secret)) ? (hit.client as T) : undefined;
  }

  /** The invalidation count to pass to rememberVerifiedClient: take it BEFORE reading the client. */
  clientLookupStarted(): number {
    return this.invalidations;
  }

  /**
   * Cache a client whose secret was just verified against the database, unless an invalidation
   * arrived since `startedAt` (what was read may be older than that change).
   */
  rememberVerifiedClient(clientId: string, clientUuid: string, secret: string, client: unknown, startedAt: number) {
    if (startedAt !== this.invalidations || this.cacheMs <= 0) return;
    this.bus.ensureSubscribed();
    if (this.verifiedClientIds.size >= 20000) this.verifiedClientIds.clear();
    this.verifiedClients.set(clientId, { mac: this.secretMac(clientId, secret), uuid: clientUuid, client }, this.cacheMs);
    this.verifiedClientIds.set(clientUuid, clientId);
  }

  /**
   * Forget cached state about a client (after its change has committed): at once in this process,
   * and in every other API process as soon as the Redis message reaches it (within AUTH_CACHE_SECONDS
   * at worst, when Redis is unreachable).
   */
  forgetClient(clientUuid: string) {
    this.bus.publish({ client: clientUuid });
  }
  forgetFamily(familyId: string) {
    this.bus.publish({ family: familyId });
  }

  private forgetClientLocally(clientUuid: string) {
    this.invalidations++;
    this.clientActive.delete(clientUuid);
    const clientId = this.verifiedClientIds.get(clientUuid);
    if (clientId !== undefined) {
      this.verifiedClients.delete(clientId);
      this.verifiedClientIds.delete(clientUuid);
    }
  }

  private forgetAllLocally() {
    this.invalidations++;
    this.clientActive.clear();
    this.familyRevoked.clear();
    this.verifiedClients.clear();
    this.verifiedClientIds.clear();
  }
}
