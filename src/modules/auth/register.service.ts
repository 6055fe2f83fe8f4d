import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { ALL_SCOPES, SCOPE_CODENAMES } from '../../core/auth/scopes';
import { sha256 } from '../../core/crypto/crypto';
import { ApiError } from '../../core/http/api-error';
import { newClientId, newClientSecret } from '../../core/auth/client-credentials';
import { OAuthClient } from './oauth.entities';

export const AUTH_METHODS = ['none', 'client_secret_post', 'client_secret_basic'] as const;
/** A registered client may use only the authorization code grant (and refresh its tokens). */
export const REGISTRABLE_GRANTS = ['authorization_code', 'refresh_token'] as const;
export const REGISTRABLE_RESPONSE_TYPES = ['code'] as const;

const MAX_REDIRECT_URIS = 10;
const MAX_URI_LENGTH = 2000;

/** The RFC 7591 response of a registration. */
export interface RegistrationResponse {
  client_id: string;
  client_id_issued_at: number;
  client_secret?: string;
  client_secret_expires_at?: number;
  client_name: string;
  redirect_uris: string[];
  grant_types: string[];
  response_types: string[];
  token_endpoint_auth_method: string;
  scope: string;
}

const invalidMetadata = (description: string) => new ApiError(400, description, { oauthError: 'invalid_client_metadata' });
const invalidRedirect = (description: string) => new ApiError(400, description, { oauthError: 'invalid_redirect_uri' });

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

/**
 * Why a redirect URI is refused, or null when it is acceptable: an absolute https URL, or http on
 * a loopback host (RFC 8252 native apps); no fragment (RFC 6749 3.1.2), no user info.
 */
export function redirectUriProblem(uri: string): string | null {
  if (uri.length === 0 || uri.length > MAX_URI_LENGTH) return `must be 1 to ${MAX_URI_LENGTH} characters`;
  if (/[\s\u0000-\u001f\u007f]/.test(uri)) return 'must not contain whitespace or control characters';
  if (uri.includes('#')) return 'must not contain a fragment';
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return 'must be an absolute URL';
  }
  if (url.username || url.password) return 'must not contain user information';
  if (url.protocol === 'https:') return url.hostname ? null : 'must name a host';
  if (url.protocol === 'http:') return LOOPBACK_HOSTS.has(url.hostname) ? null : 'must use https (http is allowed only on 127.0.0.1, [::1] or localhost)';
  return 'must use https (http is allowed only on 127.0.0.1, [::1] or localhost)';
}

function stringList(value: unknown, member: string, fail: (d: string) => ApiError): string[] {
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) throw fail(`${member} must be an array of strings.`);
  return value as string[];
}

/** RFC 7591 open dynamic client registration. The client belongs to no organization until an administrator authorizes it. */
@Injectable()
export class RegisterService {
  constructor(@InjectRepository(OAuthClient) private readonly clients: Repository<OAuthClient>) {}

  async register(body: unknown): Promise<RegistrationResponse> {
    if (body === null || typeof body !== 'object' || Array.isArray(body)) throw invalidMetadata('The request body must be a JSON object.');
    const b = body as Record<string, unknown>;

    if (b.redirect_uris === undefined || b.redirect_uris === null) throw invalidRedirect('redirect_uris is required.');
    const redirectUris = stringList(b.redirect_uris, 'redirect_uris', invalidRedirect);
    if (redirectUris.length === 0) throw invalidRedirect('redirect_uris must hold at least one URI.');
    if (redirectUris.length > MAX_REDIRECT_URIS) throw invalidRedirect(`redirect_uris may hold at most ${MAX_REDIRECT_URIS} URIs.`);
    redirectUris.forEach((uri, i) => {
      const problem = redirectUriProblem(uri);
      if (problem) throw invalidRedirect(`redirect_uris[${i}] ${problem}.`);
    });

    if (typeof b.client_name !== 'string' || b.client_name.trim() === '') throw invalidMetadata('client_name is required.');
    const name = b.client_name.trim();
    if (name.length > 255) throw invalidMetadata('client_name must be at most 255 characters.');

    const method = b.token_endpoint_auth_method ?? 'client_secret_post';
    if (typeof method !== 'string' || !(AUTH_METHODS as readonly string[]).includes(method)) {
      throw invalidMetadata(`token_endpoint_auth_method must be one of ${AUTH_METHODS.join(', ')}.`);
    }

    let grantTypes: string[] = [...REGISTRABLE_GRANTS];
    if (b.grant_types !== undefined && b.grant_types !== null) {
      grantTypes = [...new Set(stringList(b.grant_types, 'grant_types', invalidMetadata))];
      const other = grantTypes.filter((g) => !(REGISTRABLE_GRANTS as readonly string[]).includes(g));
      if (other.length) throw invalidMetadata(`grant_types may hold only ${REGISTRABLE_GRANTS.join(' and ')}; not ${other.join(', ')}.`);
      if (!grantTypes.includes('authorization_code')) throw invalidMetadata('grant_types must include authorization_code.');
    }

    let responseTypes: string[] = [...REGISTRABLE_RESPONSE_TYPES];
    if (b.response_types !== undefined && b.response_types !== null) {
      responseTypes = [...new Set(stringList(b.response_types, 'response_types', invalidMetadata))];
      if (responseTypes.length === 0 || responseTypes.some((r) => !(REGISTRABLE_RESPONSE_TYPES as readonly string[]).includes(r))) {
        throw invalidMetadata('response_types may hold only code.');
      }
    }

    // No scope registered: the client may ask for any scope (an administrator holds them all).
    let scopes: string[] = [...SCOPE_CODENAMES];
    if (b.scope !== undefined && b.scope !== null) {
      if (typeof b.scope !== 'string') throw invalidMetadata('scope must be a space-separated string.');
      const wanted = [...new Set(b.scope.split(' ').filter(Boolean))];
      const unknown = wanted.filter((s) => !ALL_SCOPES.has(s));
      if (unknown.length) throw invalidMetadata(`Unknown scopes: ${unknown.join(', ')}.`);
      if (wanted.length) scopes = wanted.sort();
    }

    const secret = method === 'none' ? undefined : newClientSecret();
    const client = await this.clients.save(
      this.clients.create({
        organizationId: null,
        clientId: newClientId(),
        secretHash: secret ? sha256(secret) : null,
        name,
        description: null,
        scopes,
        isActive: true,
        ipAllowlist: [],
        redirectUris,
        tokenEndpointAuthMethod: method,
        grantTypes,
        responseTypes,
        isDynamic: true,
        isBootstrap: false,
        deactivatedAt: null,
      }),
    );
    return {
      client_id: client.clientId,
      client_id_issued_at: Math.floor(client.createdAt.getTime() / 1000),
      ...(secret ? { client_secret: secret, client_secret_expires_at: 0 } : {}),
      client_name: client.name,
      redirect_uris: client.redirectUris,
      grant_types: client.grantTypes,
      response_types: client.responseTypes,
      token_endpoint_auth_method: client.tokenEndpointAuthMethod,
      scope: client.scopes.join(' '),
    };
  }
}
