import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/config';
import { constantTimeEqual, sha256 } from '../crypto/crypto';
import { unauthorized } from '../http/api-error';
import { AccessClaims, AccessTokenStrategy, invalidToken } from './jwt.strategy';
import { AuthInvalidationBus } from './invalidation';
import type { Principal } from './principal';
import { denyAccessToken } from './revoked-tokens';
import { ALL_SCOPES } from './scopes';
import { TtlCache } from './ttl-cache';
import { unscoped } from '../database/scoped';

export type { AccessClaims } from './jwt.strategy';

/**
 * Authenticates callers: Bearer JWTs (verified by AccessTokenStrategy, the passport-jwt strategy
 * registered as 'jwt', the only verifier of Bearer tokens) and, on /v1, organization API keys by
 * HTTP Basic. Client state and refresh-token families are re-read from the database at most every
 * AUTH_CACHE_SECONDS, so the hot path makes no query; a change to a client or a revoked family drops
 * the cached state at once in every API process (AuthInvalidationBus), within AUTH_CACHE_SECONDS
 * when Redis is unreachable.
 */
@Injectable()
export class AuthService {
  private readonly clientActive = new TtlCache<{ active: boolean; organizationId: string | null }>();
  private readonly familyRevoked = new TtlCache<boolean>();
  private readonly apiKeys = new TtlCache<string | null>();
  /** Bumped by every invalidation: a lookup that read the database before one may not cache what it read. */
  private invalidations = 0;

  constructor(
    private readonly ds: DataSource,
    private readonly config: AppConfig,
    private readonly bus: AuthInvalidationBus,
    /** The access-token strategy: the claims of a Bearer token come from it and from nothing else. */
    readonly strategy: AccessTokenStrategy,
  ) {
    bus.onMessage((m) => {
      this.invalidations++;
      if (m.all) {
        this.clientActive.clear();
        this.familyRevoked.clear();
      }
      if (m.client) this.clientActive.delete(m.client);
      if (m.family) this.familyRevoked.delete(m.family);
    });
  }

  private get cacheMs() {
    return this.config.AUTH_CACHE_SECONDS * 1000;
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
   * The principal of a Bearer credential whose claims, client state and family state are all cached
   * and acceptable; undefined for anything else (no credentials, another scheme, anything to look
   * up or to refuse): nothing thrown and no promise made, for a route's fast path
   * (core/routes/fast-path.ts), which then leaves the request to the global guard.
   */
  cachedBearerPrincipal(authorization: string | undefined): Principal | undefined {
    if (!authorization || authorization.length < 8 || authorization.slice(0, 7).toLowerCase() !== 'bearer ') return undefined;
    const value = authorization.slice(7).trim();
    return value ? this.cachedPrincipal(value) : undefined;
  }

  /**
   * The principal of a token whose claims, client state and family state are all cached and
   * acceptable; undefined whenever anything is missing or would be refused (fromToken then decides,
   * with the same checks, and gives the error).
   */
  private cachedPrincipal(token: string): Principal | undefined {
    const claims = this.strategy.cached(token);
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
    const claims = await this.strategy.verify(token);
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
    const rows = await unscoped(this.ds, 'an API key is looked up by its hash').query<{ organization_id: string; key_hash: Buffer }[]>(
      `SELECT organization_id, key_hash FROM api_keys WHERE key_hash = $1 AND revoked_at IS NULL`,
      [hash],
    );
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
      const rows = await unscoped(this.ds, 'the client of a verified token, before its organization is known').query<{ is_active: boolean; organization_id: string | null }[]>(
        `SELECT is_active, organization_id FROM oauth_clients WHERE id = $1`,
        [clientUuid],
      );
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
      const rows = await unscoped(this.ds, 'the family of a verified token, by its id').query<{ revoked_at: Date | null }[]>(`SELECT revoked_at FROM token_families WHERE id = $1`, [familyId]);
      revoked = !rows.length || rows[0].revoked_at !== null;
      if (startedAt === this.invalidations) {
        if (this.cacheMs > 0) this.bus.ensureSubscribed();
        this.familyRevoked.set(familyId, revoked, this.cacheMs);
      }
    }
    return revoked;
  }

  /**
   * Forget cached state about a client (after its change has committed): at once in this process,
   * and in every other API process as soon as the Redis message reaches it (within AUTH_CACHE_SECONDS
   * at worst, when Redis is unreachable). VerifiedClients listens to the same messages.
   */
  forgetClient(clientUuid: string) {
    this.bus.publish({ client: clientUuid });
  }
  forgetFamily(familyId: string) {
    this.bus.publish({ family: familyId });
  }

  /**
   * Revoke one access token (its claims as verified): its `jti` goes into the denylist until its
   * `exp`, then its cached verification is dropped at once in this process and, through the bus, in
   * every other API process (each verifies it again on its next use, reads the denylist, refuses
   * it). The row is written before the message, so a process that hears the message and verifies
   * again finds it.
   */
  async revokeAccessToken(claims: AccessClaims): Promise<void> {
    await denyAccessToken(this.ds, claims.jti, claims.exp);
    this.bus.publish({ jti: claims.jti });
  }

  /** The claims of an access token (AccessTokenStrategy.verify: signature, expiry, audience, not revoked; not the client's or family's standing). */
  verifyAccessToken(token: string): Promise<AccessClaims> {
    return this.strategy.verify(token);
  }
}
