import { Injectable } from '@nestjs/common';
import * as jwt from 'jsonwebtoken';
import { createPrivateKey, KeyObject, randomUUID, sign as cryptoSign } from 'node:crypto';
import { ExtractJwt, Strategy as JwtStrategy } from 'passport-jwt';
import { AppConfig, issuerUrl } from '../config/config';
import { isDatabaseUnavailable } from '../database/unavailable';
import { unauthorized } from '../http/api-error';
import { KeysService } from './keys.service';
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

export const invalidToken = (detail: string) =>
  unauthorized(detail, { headers: { 'WWW-Authenticate': 'Bearer error="invalid_token"' } });

/**
 * Access tokens (ES256 JWTs) of this API: signed with the current signing key (KeysService), and
 * verified through passport-jwt's strategy, the claims then cached until shortly before they expire
 * (at most a minute). Whether the token's client and family are still in good standing is
 * AuthService's question, not this one's.
 */
@Injectable()
export class AccessTokens {
  private readonly verified = new TtlCache<AccessClaims>();
  private readonly strategy: JwtStrategy;
  /** Tokens without `aud` are accepted only when issued before this process started (older versions issued them). */
  private readonly bootedAt = Date.now();
  /**
   * The parsed current signing key and its encoded JWS header: parsing the PEM on every token cost
   * more than signing, and jsonwebtoken's generic path (option checks, jws streams) about as much
   * as the ECDSA signature itself.
   */
  private signer?: { pem: string; key: KeyObject; header: string };

  constructor(
    private readonly config: AppConfig,
    private readonly keys: KeysService,
  ) {
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

  /**
   * The audience of every access token: the API's base URL, the same value as the issuer. One
   * resource server covers /v1, /v2 and (later) /mcp, which all live under that URL, so one token
   * serves all of them; a token whose `aud` names anything else is refused.
   */
  audience(): string {
    return issuerUrl(this.config);
  }

  /**
   * An ES256 JWT (RFC 7515 compact form, RFC 7518 section 3.4: the raw 64-byte r||s signature),
   * the same token jsonwebtoken made: header {alg, typ, kid}; claims plus jti, iat, exp, aud, iss.
   */
  sign(claims: Omit<AccessClaims, 'iss' | 'iat' | 'exp' | 'jti' | 'aud'>): { token: string; expiresIn: number } {
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

  /** The claims of a token verified within the last minute, or undefined (expiry not checked here). */
  cached(token: string): AccessClaims | undefined {
    return this.verified.get(token);
  }

  async verify(token: string): Promise<AccessClaims> {
    let claims = this.verified.get(token);
    if (!claims) {
      claims = await this.verifyWithStrategy(token);
      if (!claims.org || !claims.cid || typeof claims.scope !== 'string') throw invalidToken('The access token is invalid.');
      if (!this.audienceOk(claims)) throw invalidToken('The access token is not meant for this API (aud).');
      const ttl = Math.min(claims.exp * 1000 - Date.now(), 60_000);
      if (ttl > 0) this.verified.set(token, claims, ttl);
    } else if (claims.exp * 1000 <= Date.now()) {
      this.verified.delete(token);
      throw invalidToken('The access token has expired.');
    }
    return claims;
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

  /** `aud` must name this API (a string, or an array containing it); see `bootedAt` for tokens without one. */
  private audienceOk(claims: AccessClaims): boolean {
    const aud = claims.aud;
    if (aud === undefined) return typeof claims.iat === 'number' && claims.iat * 1000 < this.bootedAt;
    const expected = this.audience();
    return typeof aud === 'string' ? aud === expected : Array.isArray(aud) && aud.includes(expected);
  }
}
