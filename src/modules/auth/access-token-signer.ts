import { Injectable } from '@nestjs/common';
import { createPrivateKey, KeyObject, randomUUID, sign as cryptoSign } from 'node:crypto';
import type { AccessClaims } from '../../core/auth/jwt.strategy';
import { KeysService } from '../../core/auth/keys.service';
import { AppConfig, issuerUrl } from '../../core/config/config';

/**
 * Signs the access tokens the token endpoint issues (ES256, the current signing key of KeysService).
 * Their verification is AccessTokenStrategy's (core/auth/jwt.strategy.ts), the one verifier.
 */
@Injectable()
export class AccessTokenSigner {
  /**
   * The parsed current signing key and its encoded JWS header: parsing the PEM on every token cost
   * more than signing, and jsonwebtoken's generic path (option checks, jws streams) about as much
   * as the ECDSA signature itself.
   */
  private signer?: { pem: string; key: KeyObject; header: string };

  constructor(
    private readonly config: AppConfig,
    private readonly keys: KeysService,
  ) {}

  /**
   * The audience of every access token: the API's base URL, the same value as the issuer. One
   * resource server covers /v1, /v2 and /mcp, which all live under that URL, so one token serves
   * all of them; the strategy refuses a token whose `aud` names anything else.
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
}
