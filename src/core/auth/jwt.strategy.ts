import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import * as jwt from 'jsonwebtoken';
import { ExtractJwt, Strategy } from 'passport-jwt';
import { DataSource } from 'typeorm';
import { AppConfig, issuerUrl } from '../config/config';
import { isDatabaseUnavailable } from '../database/unavailable';
import { unauthorized } from '../http/api-error';
import { AuthInvalidationBus } from './invalidation';
import { KeysService } from './keys.service';
import { isAccessTokenRevoked } from './revoked-tokens';
import { TtlCache } from './ttl-cache';

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

export const invalidToken = (detail: string) => unauthorized(detail, { headers: { 'WWW-Authenticate': 'Bearer error="invalid_token"' } });

/** The request passport-jwt reads a token from: a real one, or the bare one `verify` makes (which also carries the token as given). */
type TokenRequest = { headers: { authorization?: string }; accessToken?: string };

const fromBearer = ExtractJwt.fromAuthHeaderAsBearerToken();

/**
 * The access-token strategy: passport-jwt's `Strategy`, registered with passport as `'jwt'` by
 * @nestjs/passport's PassportStrategy (and provided through PassportModule in AuthModule). It is
 * the only verifier of Bearer tokens in the API (docs/decisions/oauth.md, "Bearer tokens through
 * passport"):
 * - its key provider finds the public key of the token's `kid` (KeysService: the signing keys in the
 *   database, reloaded when an unknown kid appears); an unknown kid or another algorithm than ES256
 *   has no key, so `alg: none` and foreign tokens fail there;
 * - passport-jwt checks the ES256 signature, `iss` and `exp` (no clock tolerance);
 * - `validate` checks what our tokens must carry (`org`, `cid`, `scope`, `jti`) and the audience,
 *   that the token has not been revoked (its `jti` in the denylist, core/auth/revoked-tokens.ts),
 *   and remembers the verified claims under the token until they expire (at most a minute);
 * - a revocation (AuthInvalidationBus `{jti}`, from any API process) drops the token's remembered
 *   claims at once, so its next use is verified again and refused; a (re)subscription to the bus
 *   drops them all, since a message may have been missed;
 * - `authenticate` (passport's entry point) answers a token remembered that way without verifying it
 *   again, so every caller of the strategy shares that cache.
 * The global guard reaches it through AuthService (`cached` on the hot path: one map read, no
 * promise; `verify` otherwise), the fast paths through `AuthService.cachedBearerPrincipal`, the
 * revocation endpoint through `verify`. Whether the token's client and family are still in good
 * standing is AuthService's question, not this one's.
 */
@Injectable()
export class AccessTokenStrategy extends PassportStrategy(Strategy, 'jwt') {
  private readonly verified = new TtlCache<AccessClaims>();
  /** Tokens without `aud` are accepted only when issued before this process started (older versions issued them). */
  private readonly bootedAt = Date.now();
  /** Bumped by every revocation message: a verification that read the denylist before one may not remember the claims it read. */
  private revocations = 0;

  constructor(
    private readonly config: AppConfig,
    keys: KeysService,
    private readonly ds: DataSource,
    private readonly bus: AuthInvalidationBus,
  ) {
    super({
      jwtFromRequest: fromBearer,
      secretOrKeyProvider: (_req: unknown, raw: string, done: (err: unknown, key?: any) => void) => {
        const header = jwt.decode(raw, { complete: true })?.header;
        if (!header?.kid || header.alg !== 'ES256') return done(null, undefined);
        keys.publicKey(header.kid).then((k) => done(null, k ?? undefined), done);
      },
      algorithms: ['ES256'],
      issuer: issuerUrl(config),
      jsonWebTokenOptions: { clockTolerance: 0 },
      passReqToCallback: true,
    });
    bus.onMessage((m) => {
      if (m.all) {
        this.revocations++;
        this.verified.clear();
      } else if (m.jti) {
        this.revocations++;
        const jti = m.jti;
        this.verified.deleteWhere((claims) => claims.jti === jti);
      }
    });
  }

  /**
   * passport-jwt's verify callback (through PassportStrategy): the payload's signature, issuer and
   * expiry are verified. Refuses a token without our claims, for another audience or revoked
   * (thrown: the strategy's `error`, a 401 invalid_token; a denylist the database cannot answer stays
   * that error, a 503), and remembers the claims of an accepted one, unless a revocation arrived
   * while the denylist was read (the read may predate it).
   */
  async validate(req: TokenRequest, payload: AccessClaims): Promise<AccessClaims> {
    if (!payload.org || !payload.cid || typeof payload.scope !== 'string' || typeof payload.jti !== 'string' || !payload.jti) {
      throw invalidToken('The access token is invalid.');
    }
    if (!this.audienceOk(payload)) throw invalidToken('The access token is not meant for this API (aud).');
    const startedAt = this.revocations;
    if (await isAccessTokenRevoked(this.ds, payload.jti)) throw invalidToken('The access token has been revoked.');
    // the cache key is the token as the caller gave it to `verify` (the same string the guard looks up later)
    const token = req.accessToken ?? fromBearer(req as any);
    const ttl = Math.min(payload.exp * 1000 - Date.now(), 60_000);
    if (token && ttl > 0 && startedAt === this.revocations) {
      // a remembered token must hear of its revocation in any process: listen before remembering
      this.bus.ensureSubscribed();
      this.verified.set(token, payload, ttl);
    }
    return payload;
  }

  /** passport's entry point: a token verified within the last minute succeeds at once; anything else is verified. */
  override authenticate(req: TokenRequest, options?: unknown): void {
    const token = fromBearer(req as any);
    const claims = token ? this.verified.get(token) : undefined;
    if (!claims) return super.authenticate(req as any, options);
    if (claims.exp * 1000 <= Date.now()) {
      this.verified.delete(token!);
      return this.fail(new Error('jwt expired'), 401);
    }
    this.success(claims);
  }

  /**
   * The claims of a token verified within the last minute, or undefined (expiry not checked here):
   * no promise, no allocation, for the global guard's synchronous path and the fast reads.
   */
  cached(token: string): AccessClaims | undefined {
    return this.verified.get(token);
  }

  /**
   * The strategy run as passport runs it (an instance made from the strategy with the action
   * functions attached, then `authenticate`) against a bare request carrying the token: its claims,
   * or the error the guard answers (401 invalid_token; a key lookup that failed because the database
   * is unreachable stays that error, a 503).
   */
  verify(token: string): Promise<AccessClaims> {
    const claims = this.verified.get(token);
    if (claims) {
      if (claims.exp * 1000 > Date.now()) return Promise.resolve(claims);
      this.verified.delete(token);
      return Promise.reject(invalidToken('The access token has expired.'));
    }
    return new Promise((resolve, reject) => {
      const attempt: any = Object.create(this);
      attempt.success = (user: AccessClaims) => resolve(user);
      // passport-jwt reports a key lookup that failed (database down) as a failure: that is a 503, not a 401
      attempt.fail = (info: any) => reject(isDatabaseUnavailable(info) ? info : invalidToken(info?.message === 'jwt expired' ? 'The access token has expired.' : 'The access token is invalid.'));
      attempt.error = (err: unknown) => reject(err);
      attempt.authenticate({ headers: { authorization: `Bearer ${token}` }, accessToken: token } satisfies TokenRequest, { session: false });
    });
  }

  /** `aud` must name this API (a string, or an array containing it); see `bootedAt` for tokens without one. */
  private audienceOk(claims: AccessClaims): boolean {
    const aud = claims.aud;
    if (aud === undefined) return typeof claims.iat === 'number' && claims.iat * 1000 < this.bootedAt;
    const expected = issuerUrl(this.config);
    return typeof aud === 'string' ? aud === expected : Array.isArray(aud) && aud.includes(expected);
  }
}
