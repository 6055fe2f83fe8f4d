import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { createHash } from 'node:crypto';
import { DataSource, EntityManager, Repository } from 'typeorm';
import { AccessClaims, AuthService } from '../../core/auth/auth.service';
import { isDatabaseUnavailable } from '../../core/database/unavailable';
import { AppConfig } from '../../core/config/config';
import { constantTimeEqual, decrypt, encrypt, randomToken, sha256 } from '../../core/crypto/crypto';
import { ApiError } from '../../core/http/api-error';
import { encodeId } from '../../core/ids/ids';
import { AccessTokenSigner } from './access-token-signer';
import { ClientsService, ipAllowed } from './clients.service';
import { VerifiedClients } from './verified-clients';
import { AuthCode, OAuthClient, RefreshToken, TokenFamily } from './oauth.entities';
import { scoped, unscoped } from '../../core/database/scoped';
import { decodeId as decodePublicId } from '../../core/ids/ids';
import { adminAllowedScopes, narrowTo } from '../organizations/admin-roles';

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

export const oauthError = (status: number, error: string, description: string) => new ApiError(status, description, { oauthError: error });
/** A refresh token as the refresh grant reads it (`in_grace`: rotated out within the grace window). */
interface RefreshTokenRead {
  id: string;
  family_id: string;
  scope: string;
  expires_at: Date;
  rotated_at: Date | null;
  token_hash: Buffer;
  successor_enc: string | null;
  in_grace: boolean;
}

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
    private readonly signer: AccessTokenSigner,
    private readonly verifiedClients: VerifiedClients,
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
    return this.signer.sign({
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
    return this.clientCredentialsFor(client, requestedScope, ip);
  }

  /**
   * clientCredentials() without a promise when the client's verification is cached (the same
   * client_id and secret accepted within AUTH_CACHE_SECONDS, not invalidated since): the same token
   * answer, or the same error thrown; undefined when the client must be read and verified first.
   */
  cachedClientCredentials(creds: ClientCredentials, requestedScope: string | undefined, ip: string): TokenResponse | undefined {
    if (!creds.clientId || !creds.clientSecret) return undefined;
    const client = this.verifiedClients.get<OAuthClient>(creds.clientId, creds.clientSecret);
    return client && this.clientCredentialsFor(client, requestedScope, ip);
  }

  private clientCredentialsFor(client: OAuthClient, requestedScope: string | undefined, ip: string): TokenResponse {
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

  /**
   * Refresh-token rotation. The family row lock serializes every refresh of one family (across API
   * processes): the statements lock the family first, then its refresh token, always in that order.
   * A rotated-out token presented again within REFRESH_TOKEN_GRACE_SECONDS of its rotation (a retry,
   * or a concurrent refresh that lost the race) gets the same new refresh token again, provided that
   * one is still current; any other reuse revokes the whole family.
   */
  async refresh(creds: ClientCredentials, refreshToken: string | undefined, requestedScope: string | undefined, ip: string): Promise<TokenResponse> {
    if (!refreshToken) throw oauthError(400, 'invalid_request', 'refresh_token is required.');
    const hash = sha256(refreshToken);
    const grace = this.config.REFRESH_TOKEN_GRACE_SECONDS;
    const result = await this.ds.transaction(async (m) => {
      const found: { family_id: string }[] = await m.query(`SELECT family_id FROM refresh_tokens WHERE token_hash = $1`, [hash]);
      if (!found.length) throw invalidGrant('The refresh token is invalid.');
      const [family] = await unscoped(m, 'the family of a refresh token found by its hash').query<
        { id: string; revoked_at: Date | null; client_id: string; organization_id: string; subject: string }[]
      >(`SELECT id, revoked_at, client_id, organization_id, subject FROM token_families WHERE id = $1 FOR UPDATE`, [found[0].family_id]);
      const rows: RefreshTokenRead[] = await m.query(
        `SELECT id, family_id, scope, expires_at, rotated_at, token_hash, successor_enc,
                (rotated_at IS NOT NULL AND rotated_at > clock_timestamp() - make_interval(secs => $2)) AS in_grace
           FROM refresh_tokens WHERE token_hash = $1 FOR UPDATE`,
        [hash, grace],
      );
      const row = rows[0];
      if (!family || !row || row.family_id !== family.id || !constantTimeEqual(row.token_hash, hash)) throw invalidGrant('The refresh token is invalid.');
      let successor: { token: string; scope: string } | null = null;
      if (row.rotated_at) {
        successor = row.in_grace && !family.revoked_at ? await this.currentSuccessor(m, row) : null;
        if (!successor) {
          // Reuse of a rotated-out token: someone holds a copy. Revoke the whole family.
          await scoped(m, family.organization_id).query(`UPDATE token_families SET revoked_at = now() WHERE id = $1 AND organization_id = $org AND revoked_at IS NULL`, [family.id]);
          if (row.successor_enc) await m.query(`UPDATE refresh_tokens SET successor_enc = NULL WHERE id = $1`, [row.id]);
          return { reuse: true as const, familyId: family.id as string };
        }
      }
      if (family.revoked_at) throw invalidGrant('The refresh token has been revoked.');
      if (!successor && new Date(row.expires_at).getTime() <= Date.now()) throw invalidGrant('The refresh token has expired.');
      const client = await m.findOne(OAuthClient, { where: { id: family.client_id, organizationId: family.organization_id } });
      if (!client || !client.isActive) throw invalidGrant('The client of this refresh token is deactivated.');
      if (creds.clientId && creds.clientId !== client.clientId) throw invalidGrant('The refresh token was issued to another client.');
      // RFC 6749 section 6: a confidential client authenticates to refresh, so a leaked refresh token alone is useless.
      await this.authenticateAtTokenEndpoint(client, creds);
      if (!client.grantTypes.includes('refresh_token')) throw oauthError(400, 'unauthorized_client', 'This client may not use the refresh_token grant.');
      if (!ipAllowed(client.ipAllowlist, ip)) throw oauthError(401, 'invalid_client', 'Tokens are not issued to this client from this address.');
      // A family approved by an administrator holds at most that administrator's role now (CONVENTIONS §19):
      // a shrunken role narrows at this refresh; a removed administrator's family is refused
      const roleScopes = await this.administratorScopes(m, family.organization_id, family.subject);
      if (roleScopes === null) throw invalidGrant('The administrator who approved this token no longer exists.');
      const narrow = (scope: string) => (roleScopes === undefined ? scope.split(' ').filter(Boolean) : narrowTo(scope.split(' ').filter(Boolean), roleScopes));
      const base = { reuse: false as const, client, organizationId: family.organization_id as string, subject: family.subject as string, familyId: family.id as string };
      if (successor) {
        // the repeat within the grace window: the same new refresh token, a fresh access token
        return { ...base, scope: this.narrowScope(requestedScope, narrow(successor.scope)), next: successor.token, rotatedId: null };
      }
      const scope = this.narrowScope(requestedScope, narrow(row.scope));
      const next = await this.issueRefresh(m, family.id, scope);
      // the successor is kept for the grace window only, encrypted (it is a bearer secret); erased after it
      await m.query(`UPDATE refresh_tokens SET rotated_at = clock_timestamp(), successor_enc = $2 WHERE id = $1`, [row.id, grace > 0 ? encrypt(this.config.APP_SECRET, next) : null]);
      return { ...base, scope, next, rotatedId: grace > 0 ? (row.id as string) : null };
    });
    if (result.reuse) {
      this.auth.forgetFamily(result.familyId);
      throw invalidGrant('The refresh token has already been used; its family has been revoked.');
    }
    if (result.rotatedId) this.eraseSuccessorLater(result.rotatedId, grace);
    const { token, expiresIn } = this.accessToken(result.client, result.organizationId, result.subject, result.scope, result.familyId);
    return { access_token: token, token_type: 'Bearer', expires_in: expiresIn, scope: result.scope, refresh_token: result.next };
  }

  /**
   * The scopes the administrator named by a family's subject may hold now (adminAllowedScopes);
   * undefined for a subject that is not an administrator; null for an administrator who no longer exists.
   */
  private async administratorScopes(m: EntityManager, organizationId: string, subject: string): Promise<string[] | null | undefined> {
    const adminId = decodePublicId('admin', subject);
    if (!adminId) return undefined;
    return adminAllowedScopes(m, organizationId, adminId);
  }

  /** The successor of a rotated-out token, when it is kept (within the window) and not itself rotated out yet. */
  private async currentSuccessor(m: EntityManager, row: { family_id: string; successor_enc: string | null }): Promise<{ token: string; scope: string } | null> {
    if (!row.successor_enc) return null;
    let token: string;
    try {
      token = decrypt(this.config.APP_SECRET, row.successor_enc);
    } catch {
      return null; // sealed with another APP_SECRET: treat as no successor
    }
    const rows: { scope: string; rotated_at: Date | null }[] = await m.query(`SELECT scope, rotated_at FROM refresh_tokens WHERE token_hash = $1 AND family_id = $2 FOR UPDATE`, [
      sha256(token),
      row.family_id,
    ]);
    if (!rows.length || rows[0].rotated_at) return null;
    return { token, scope: rows[0].scope };
  }

  /**
   * Erase a kept successor once the window is over (a second after it, so a repeat at the very end
   * still finds it). Best effort in this process; the clean-up sweep erases whatever a stopped
   * process left, and a repeat after the window erases it too.
   */
  private eraseSuccessorLater(refreshTokenId: string, graceSeconds: number) {
    const timer = setTimeout(
      () => {
        this.ds.query(`UPDATE refresh_tokens SET successor_enc = NULL WHERE id = $1 AND successor_enc IS NOT NULL`, [refreshTokenId]).catch(() => undefined);
      },
      graceSeconds * 1000 + 1000,
    );
    timer.unref();
  }

  /**
   * Client authentication of the refresh and code grants, for a client already found: a
   * confidential client proves its secret; a public client (`none`) sends no secret at all, and
   * one that sends any is refused (401 invalid_client) rather than let through on the grant alone,
   * as ClientsService.authenticate refuses it everywhere else (revoke, client_credentials).
   */
  private async authenticateAtTokenEndpoint(client: OAuthClient, creds: ClientCredentials): Promise<void> {
    if (client.tokenEndpointAuthMethod === 'none') {
      if (creds.clientSecret) throw oauthError(401, 'invalid_client', 'A public client does not send a client_secret.');
      return;
    }
    if (!(await this.clients.authenticate(client.clientId, creds.clientSecret))) throw invalidClient();
  }

  async authorizationCode(creds: ClientCredentials, params: { code?: string; codeVerifier?: string; redirectUri?: string }, ip: string): Promise<TokenResponse> {
    const { code, codeVerifier, redirectUri } = params;
    if (!code || !codeVerifier || !redirectUri || !creds.clientId) {
      throw oauthError(400, 'invalid_request', 'code, code_verifier, redirect_uri and client_id are required.');
    }
    if (!VERIFIER.test(codeVerifier)) throw oauthError(400, 'invalid_request', 'code_verifier must be 43 to 128 unreserved characters.');
    const client = await this.clients.findByClientId(creds.clientId);
    if (!client || !client.isActive) throw invalidClient();
    await this.authenticateAtTokenEndpoint(client, creds);
    if (!ipAllowed(client.ipAllowlist, ip)) throw oauthError(401, 'invalid_client', 'Tokens are not issued to this client from this address.');
    const hash = sha256(code);
    const result = await this.ds.transaction(async (m) => {
      const row = await m.findOne(AuthCode, { where: { codeHash: hash }, lock: { mode: 'pessimistic_write' }, comment: 'unscoped: an authorization code is looked up by its hash' });
      if (!row || row.clientId !== client.id) throw invalidGrant('The authorization code is invalid.');
      if (row.usedAt) {
        // A second use of a code: revoke everything the first use issued.
        if (row.familyId) await scoped(m, row.organizationId).query(`UPDATE token_families SET revoked_at = now() WHERE id = $1 AND organization_id = $org AND revoked_at IS NULL`, [row.familyId]);
        return { reuse: true as const, familyId: row.familyId };
      }
      if (row.expiresAt.getTime() <= Date.now()) throw invalidGrant('The authorization code has expired.');
      if (row.redirectUri !== redirectUri) throw invalidGrant('redirect_uri does not match the authorization request.');
      const challenge = createHash('sha256').update(codeVerifier).digest('base64url');
      if (!constantTimeEqual(challenge, row.codeChallenge)) throw invalidGrant('The code_verifier does not match the code_challenge.');
      const family = await m.save(TokenFamily, m.create(TokenFamily, { clientId: client.id, organizationId: row.organizationId, subject: encodeId('admin', row.adminId), revokedAt: null }));
      await m.update(AuthCode, { id: row.id, organizationId: row.organizationId }, { usedAt: new Date(), familyId: family.id });
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

  /**
   * RFC 7009: revoke a refresh token (its whole family) or an access token: the token itself
   * (AuthService.revokeAccessToken: denied until its expiry, refused at once by every API process)
   * and, for one of the code flow or a refresh, its family as before. The token is looked up as a
   * refresh token first, then verified as an access token, whatever `token_type_hint` says (RFC 7009
   * 2.1: the hint is only a hint).
   * Without client credentials (the published body: `token`, `token_type_hint`), holding the token
   * is the proof, as for a public client: the token named is revoked whatever client it was issued
   * to (CONVENTIONS §3). When credentials are sent (body or Basic; a public client names itself with
   * client_id alone) they must authenticate the client (else 401 invalid_client), and a token issued
   * to another client is left alone. An unknown token, or another client's, answers 200 all the
   * same (section 2.2: nothing to tell the caller).
   */
  async revoke(creds: ClientCredentials, token: string): Promise<void> {
    let clientUuid: string | undefined;
    if (creds.clientId !== undefined || creds.clientSecret !== undefined) {
      const client = creds.clientId ? await this.clients.authenticate(creds.clientId, creds.clientSecret) : null;
      if (!client) throw invalidClient();
      clientUuid = client.id;
    }
    const mine = (owner: string) => clientUuid === undefined || owner === clientUuid;
    let familyId: string | undefined;
    let access: AccessClaims | undefined;
    const rows: { family_id: string; client_id: string }[] = await unscoped(this.ds, 'a refresh token is looked up by its hash').query(
      `SELECT r.family_id, f.client_id FROM refresh_tokens r JOIN token_families f ON f.id = r.family_id WHERE r.token_hash = $1`,
      [sha256(token)],
    );
    if (rows.length) {
      if (mine(rows[0].client_id)) familyId = rows[0].family_id;
    } else {
      try {
        const claims = await this.auth.verifyAccessToken(token);
        if (mine(claims.cid)) {
          access = claims;
          familyId = claims.fid;
        }
      } catch (err) {
        // not a valid access token (unknown, expired, forged, already revoked): nothing to revoke; an outage is a 503
        if (isDatabaseUnavailable(err)) throw err;
      }
    }
    if (access) await this.auth.revokeAccessToken(access);
    if (!familyId) return;
    await unscoped(this.ds, "revocation: the family of the token named (the caller's own when it authenticated)").query(
      `UPDATE token_families SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL`,
      [familyId],
    );
    this.auth.forgetFamily(familyId);
  }
}
