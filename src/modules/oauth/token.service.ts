import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { createHash } from 'node:crypto';
import { DataSource, Repository } from 'typeorm';
import { AuthService } from '../../core/auth/auth.service';
import { AppConfig } from '../../core/config/config';
import { randomToken, sha256, constantTimeEqual } from '../../core/crypto/crypto';
import { ApiError } from '../../core/http/api-error';
import { encodeId } from '../../core/ids/ids';
import { ClientsService, ipAllowed } from './clients.service';
import { AuthCode, OAuthClient, RefreshToken, TokenFamily } from './oauth.entities';

export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  scope: string;
  refresh_token?: string;
}

export interface ClientCredentials {
  clientId?: string;
  clientSecret?: string;
}

export const oauthError = (status: number, error: string, description: string) =>
  new ApiError(status, description, { oauthError: error });
const invalidClient = () => oauthError(401, 'invalid_client', 'Client authentication failed.');
const invalidGrant = (d: string) => oauthError(400, 'invalid_grant', d);

const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;

/** The three grants of the token endpoint, refresh-token rotation and revocation (RFC 7009). */
@Injectable()
export class TokenService {
  constructor(
    private readonly ds: DataSource,
    private readonly config: AppConfig,
    private readonly auth: AuthService,
    private readonly clients: ClientsService,
    @InjectRepository(RefreshToken) private readonly refreshTokens: Repository<RefreshToken>,
  ) {}

  /** `scope` asked for must be a subset of what is allowed; none asked = all allowed. */
  private narrowScope(requested: string | undefined, allowed: string[]): string {
    if (requested === undefined || requested.trim() === '') return allowed.join(' ');
    const wanted = [...new Set(requested.split(/\s+/).filter(Boolean))];
    const extra = wanted.filter((s) => !allowed.includes(s));
    if (extra.length) throw oauthError(400, 'invalid_scope', `Scopes not allowed for this client: ${extra.join(' ')}.`);
    return wanted.join(' ');
  }

  private accessToken(client: OAuthClient, organizationId: string, subject: string, scope: string, familyId?: string) {
    return this.auth.signAccessToken({
      sub: subject,
      client_id: client.clientId,
      org: organizationId,
      scope,
      cid: client.id,
      ...(familyId ? { fid: familyId } : {}),
    });
  }

  async clientCredentials(creds: ClientCredentials, requestedScope: string | undefined, ip: string): Promise<TokenResponse> {
    if (!creds.clientId || !creds.clientSecret) throw oauthError(401, 'invalid_client', 'client_id and client_secret are required.');
    const client = await this.clients.authenticate(creds.clientId, creds.clientSecret);
    if (!client) throw invalidClient();
    if (!client.organizationId || !client.grantTypes.includes('client_credentials')) {
      throw oauthError(400, 'unauthorized_client', 'This client may not use the client_credentials grant.');
    }
    if (!ipAllowed(client.ipAllowlist, ip)) throw oauthError(401, 'invalid_client', 'Tokens are not issued to this client from this address.');
    const scope = this.narrowScope(requestedScope, client.scopes);
    const { token, expiresIn } = this.accessToken(client, client.organizationId, client.clientId, scope);
    return { access_token: token, token_type: 'Bearer', expires_in: expiresIn, scope };
  }

  private async issueRefresh(m: DataSource['manager'], familyId: string, scope: string): Promise<string> {
    const token = `cpr_${randomToken(32)}`;
    await m.insert(RefreshToken, {
      familyId,
      tokenHash: sha256(token),
      scope,
      expiresAt: new Date(Date.now() + this.config.REFRESH_TOKEN_TTL * 1000),
      rotatedAt: null,
    });
    return token;
  }

  async refresh(creds: ClientCredentials, refreshToken: string | undefined, requestedScope: string | undefined, ip: string): Promise<TokenResponse> {
    if (!refreshToken) throw oauthError(400, 'invalid_request', 'refresh_token is required.');
    const hash = sha256(refreshToken);
    const result = await this.ds.transaction(async (m) => {
      const rows: any[] = await m.query(
        `SELECT r.id, r.family_id, r.scope, r.expires_at, r.rotated_at, r.token_hash, f.revoked_at, f.client_id, f.organization_id, f.subject
           FROM refresh_tokens r JOIN token_families f ON f.id = r.family_id
          WHERE r.token_hash = $1 FOR UPDATE OF r, f`,
        [hash],
      );
      const row = rows[0];
      if (!row || !constantTimeEqual(row.token_hash, hash)) throw invalidGrant('The refresh token is invalid.');
      if (row.rotated_at) {
        // Reuse of a rotated-out token: someone holds a copy. Revoke the whole family.
        await m.query(`UPDATE token_families SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL`, [row.family_id]);
        return { reuse: true as const, familyId: row.family_id as string };
      }
      if (row.revoked_at) throw invalidGrant('The refresh token has been revoked.');
      if (new Date(row.expires_at).getTime() <= Date.now()) throw invalidGrant('The refresh token has expired.');
      const client = await m.findOne(OAuthClient, { where: { id: row.client_id } });
      if (!client || !client.isActive) throw invalidGrant('The client of this refresh token is deactivated.');
      if (creds.clientId && creds.clientId !== client.clientId) throw invalidGrant('The refresh token was issued to another client.');
      // RFC 6749 section 6: a confidential client authenticates to refresh, so a leaked refresh token alone is useless.
      if (client.tokenEndpointAuthMethod !== 'none') {
        const ok = await this.clients.authenticate(client.clientId, creds.clientSecret);
        if (!ok) throw invalidClient();
      }
      if (!client.grantTypes.includes('refresh_token')) throw oauthError(400, 'unauthorized_client', 'This client may not use the refresh_token grant.');
      if (!ipAllowed(client.ipAllowlist, ip)) throw oauthError(401, 'invalid_client', 'Tokens are not issued to this client from this address.');
      const scope = this.narrowScope(requestedScope, row.scope.split(' ').filter(Boolean));
      await m.query(`UPDATE refresh_tokens SET rotated_at = now() WHERE id = $1`, [row.id]);
      const next = await this.issueRefresh(m, row.family_id, scope);
      return { reuse: false as const, client, organizationId: row.organization_id as string, subject: row.subject as string, scope, familyId: row.family_id as string, next };
    });
    if (result.reuse) {
      this.auth.forgetFamily(result.familyId);
      throw invalidGrant('The refresh token has already been used; its family has been revoked.');
    }
    const { token, expiresIn } = this.accessToken(result.client, result.organizationId, result.subject, result.scope, result.familyId);
    return { access_token: token, token_type: 'Bearer', expires_in: expiresIn, scope: result.scope, refresh_token: result.next };
  }

  async authorizationCode(
    creds: ClientCredentials,
    params: { code?: string; codeVerifier?: string; redirectUri?: string },
    ip: string,
  ): Promise<TokenResponse> {
    const { code, codeVerifier, redirectUri } = params;
    if (!code || !codeVerifier || !redirectUri || !creds.clientId) {
      throw oauthError(400, 'invalid_request', 'code, code_verifier, redirect_uri and client_id are required.');
    }
    if (!VERIFIER.test(codeVerifier)) throw oauthError(400, 'invalid_request', 'code_verifier must be 43 to 128 unreserved characters.');
    const client = await this.clients.findByClientId(creds.clientId);
    if (!client || !client.isActive) throw invalidClient();
    if (client.tokenEndpointAuthMethod !== 'none') {
      const ok = await this.clients.authenticate(creds.clientId, creds.clientSecret);
      if (!ok) throw invalidClient();
    }
    if (!ipAllowed(client.ipAllowlist, ip)) throw oauthError(401, 'invalid_client', 'Tokens are not issued to this client from this address.');
    const hash = sha256(code);
    const result = await this.ds.transaction(async (m) => {
      const row = await m.findOne(AuthCode, { where: { codeHash: hash }, lock: { mode: 'pessimistic_write' } });
      if (!row || row.clientId !== client.id) throw invalidGrant('The authorization code is invalid.');
      if (row.usedAt) {
        // A second use of a code: revoke everything the first use issued.
        if (row.familyId) await m.query(`UPDATE token_families SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL`, [row.familyId]);
        return { reuse: true as const, familyId: row.familyId };
      }
      if (row.expiresAt.getTime() <= Date.now()) throw invalidGrant('The authorization code has expired.');
      if (row.redirectUri !== redirectUri) throw invalidGrant('redirect_uri does not match the authorization request.');
      const challenge = createHash('sha256').update(codeVerifier).digest('base64url');
      if (!constantTimeEqual(challenge, row.codeChallenge)) throw invalidGrant('The code_verifier does not match the code_challenge.');
      const family = await m.save(TokenFamily, m.create(TokenFamily, { clientId: client.id, organizationId: row.organizationId, subject: encodeId('admin', row.adminId), revokedAt: null }));
      await m.update(AuthCode, { id: row.id }, { usedAt: new Date(), familyId: family.id });
      // The family exists either way: a second use of the code revokes the access tokens it carries.
      const refresh = client.grantTypes.includes('refresh_token') ? await this.issueRefresh(m, family.id, row.scope) : undefined;
      return { reuse: false as const, family, scope: row.scope, refresh, organizationId: row.organizationId };
    });
    if (result.reuse) {
      if (result.familyId) this.auth.forgetFamily(result.familyId);
      throw invalidGrant('The authorization code has already been used; the tokens it issued are revoked.');
    }
    const { token, expiresIn } = this.accessToken(client, result.organizationId, result.family.subject, result.scope, result.family.id);
    return { access_token: token, token_type: 'Bearer', expires_in: expiresIn, scope: result.scope, ...(result.refresh ? { refresh_token: result.refresh } : {}) };
  }

  /** RFC 7009: revoke a refresh token (its whole family) or a code-flow access token's family. Unknown tokens are fine. */
  async revoke(token: string): Promise<void> {
    let familyId: string | undefined;
    const row = await this.refreshTokens.findOne({ where: { tokenHash: sha256(token) } });
    if (row) familyId = row.familyId;
    else {
      try {
        const claims = await this.auth.verifyAccessToken(token);
        familyId = claims.fid;
      } catch {
        familyId = undefined;
      }
    }
    if (!familyId) return;
    await this.ds.query(`UPDATE token_families SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL`, [familyId]);
    this.auth.forgetFamily(familyId);
  }
}

