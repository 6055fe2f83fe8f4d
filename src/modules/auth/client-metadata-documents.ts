import { Injectable, Logger } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { readFileSync } from 'node:fs';
import { Repository } from 'typeorm';
import { AuthService } from '../../core/auth/auth.service';
import { SCOPE_CODENAMES } from '../../core/auth/scopes';
import { AppConfig } from '../../core/config/config';
import { unscoped } from '../../core/database/scoped';
import { outboundRequest, OutboundError } from '../../core/net/guarded-http';
import { OAuthClient } from './oauth.entities';
import { redirectUriProblem } from './register.service';

/**
 * OAuth Client ID Metadata Documents (draft-ietf-oauth-client-id-metadata-document, the MCP
 * authorization specification's preferred registration; CONVENTIONS §21, issue 33 item 5): an MCP
 * client may use an https URL with a path as its `client_id`. At the authorization endpoint the
 * server fetches that document through the guarded outbound client (core/net: address policy,
 * size and time caps, no redirects), checks that its `client_id` is the URL itself and that its
 * `redirect_uris` are acceptable (the rules of dynamic registration), and keeps the client as an
 * `oauth_clients` row whose client_id is the URL: a public client (`none`), authorization code and
 * refresh token grants, every scope registrable (the administrator's consent and the token's scope
 * narrow it), organization-less until an administrator authorizes it, like a dynamically
 * registered client. The document is fetched again when the row is older than REFRESH_MS, so a
 * changed redirect_uris list is followed. Dynamic registration (RFC 7591) stays.
 */
const REFRESH_MS = 5 * 60_000;
const MAX_DOCUMENT_BYTES = 5 * 1024;
const FETCH_TIMEOUT_MS = 5_000;
const MAX_REDIRECT_URIS = 10;
const GRANTS = ['authorization_code', 'refresh_token'];

export class ClientMetadataError extends Error {}

/** Whether a client_id is a metadata document's URL: https (or, with ALLOW_PRIVATE_URLS, http on a loopback host), with a path. */
export function isMetadataDocumentUrl(clientId: string, allowHttpLoopback = false): boolean {
  if (!/^https?:\/\//i.test(clientId)) return false;
  let url: URL;
  try {
    url = new URL(clientId);
  } catch {
    return false;
  }
  if (url.protocol === 'http:' && !(allowHttpLoopback && ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname))) return false;
  return url.pathname !== '/' && url.pathname !== '' && !url.hash && !url.username && !url.password;
}

@Injectable()
export class ClientMetadataDocuments {
  private readonly logger = new Logger(ClientMetadataDocuments.name);
  private ca?: Buffer[];

  constructor(
    @InjectRepository(OAuthClient) private readonly clients: Repository<OAuthClient>,
    private readonly config: AppConfig,
    private readonly auth: AuthService,
  ) {}

  isDocumentUrl(clientId: string): boolean {
    return isMetadataDocumentUrl(clientId, this.config.ALLOW_PRIVATE_URLS);
  }

  /** The client of a metadata document URL: the kept row while fresh, else the document fetched again and kept. */
  async resolve(clientId: string): Promise<OAuthClient> {
    const kept = await this.find(clientId);
    if (kept && !kept.isActive) return kept; // deactivated by an administrator: stays so
    if (kept && Date.now() - kept.updatedAt.getTime() < REFRESH_MS) return kept;
    const doc = await this.fetch(clientId);
    const db = unscoped(this.clients.manager, 'a metadata-document client is kept by its URL, in no organization until an administrator authorizes it');
    if (kept) {
      await db.query(
        `UPDATE oauth_clients SET name = $2, redirect_uris = $3::text[], grant_types = $4::text[], response_types = '{code}', token_endpoint_auth_method = 'none',
                updated_at = date_trunc('milliseconds', now())
          WHERE id = $1`,
        [kept.id, doc.name, doc.redirectUris, GRANTS],
      );
      this.auth.forgetClient(kept.id);
    } else {
      // a concurrent authorization may have kept it first
      await db.query(
        `INSERT INTO oauth_clients (organization_id, client_id, secret_hash, name, description, scopes, is_active, ip_allowlist, redirect_uris,
                                    token_endpoint_auth_method, grant_types, response_types, is_dynamic, is_bootstrap)
         VALUES (NULL, $1, NULL, $2, $3, $4::text[], true, '{}', $5::text[], 'none', $6::text[], '{code}', true, false)
         ON CONFLICT (client_id) DO NOTHING`,
        [clientId, doc.name, `Client ID Metadata Document ${clientId}`, [...SCOPE_CODENAMES], doc.redirectUris, GRANTS],
      );
    }
    return (await this.find(clientId))!;
  }

  private find(clientId: string): Promise<OAuthClient | null> {
    return this.clients.findOne({ where: { clientId }, comment: 'unscoped: an OAuth client is found by its client_id' });
  }

  /** The document at the URL, checked; a ClientMetadataError says what is wrong with it. */
  private async fetch(clientId: string): Promise<{ name: string; redirectUris: string[] }> {
    let body: unknown;
    try {
      const res = await outboundRequest(clientId, {
        method: 'GET',
        headers: { accept: 'application/json' },
        timeoutMs: FETCH_TIMEOUT_MS,
        maxBytes: MAX_DOCUMENT_BYTES,
        maxRedirects: 0,
        allowPrivate: this.config.ALLOW_PRIVATE_URLS,
        ca: this.trusted(),
      });
      if (res.status !== 200) throw new ClientMetadataError(`The client's metadata document answered HTTP ${res.status}.`);
      body = JSON.parse(res.body.toString('utf8'));
    } catch (e) {
      if (e instanceof ClientMetadataError) throw e;
      const why = e instanceof OutboundError ? e.message : e instanceof SyntaxError ? 'it is not JSON' : 'it could not be read';
      this.logger.warn({ clientId, reason: why }, 'client metadata document refused');
      throw new ClientMetadataError(`The client's metadata document could not be used: ${why}.`);
    }
    if (!body || typeof body !== 'object' || Array.isArray(body)) throw new ClientMetadataError("The client's metadata document is not a JSON object.");
    const d = body as Record<string, unknown>;
    if (d.client_id !== clientId) throw new ClientMetadataError("The client's metadata document names another client_id than its own URL.");
    if (d.client_secret !== undefined || d.client_secret_expires_at !== undefined) throw new ClientMetadataError("A client's metadata document may not carry a client secret.");
    const method = d.token_endpoint_auth_method ?? 'none';
    if (method !== 'none') throw new ClientMetadataError('Only public clients (token_endpoint_auth_method "none") may use a metadata document here.');
    const uris = d.redirect_uris;
    if (!Array.isArray(uris) || !uris.length || uris.length > MAX_REDIRECT_URIS || uris.some((u) => typeof u !== 'string' || redirectUriProblem(u) !== null)) {
      throw new ClientMetadataError(`The client's metadata document must list 1 to ${MAX_REDIRECT_URIS} redirect_uris, each https or http on a loopback host.`);
    }
    if (d.grant_types !== undefined && (!Array.isArray(d.grant_types) || !d.grant_types.includes('authorization_code'))) {
      throw new ClientMetadataError("The client's metadata document must allow the authorization_code grant.");
    }
    const name = typeof d.client_name === 'string' && d.client_name.trim() ? d.client_name.trim().slice(0, 255) : new URL(clientId).host;
    return { name, redirectUris: uris as string[] };
  }

  /** OUTBOUND_CA_FILE: certificates trusted beside Node's own for this fetch (a private CA; the tests' self-signed server). */
  private trusted(): Buffer[] | undefined {
    if (!this.config.OUTBOUND_CA_FILE) return undefined;
    this.ca ??= [readFileSync(this.config.OUTBOUND_CA_FILE)];
    return this.ca;
  }
}
