import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Type, type Static } from '@sinclair/typebox';
import { BlockList, isIP } from 'node:net';
import { EntityManager, IsNull, Repository } from 'typeorm';
import { AuthService } from '../../core/auth/auth.service';
import type { Principal } from '../../core/auth/principal';
import { ALL_SCOPES, SCOPE_PRESETS } from '../../core/auth/scopes';
import { newClientId, newClientSecret } from '../../core/auth/client-credentials';
import { constantTimeEqual, sha256 } from '../../core/crypto/crypto';
import { ApiError, forbidden, notFound, ValidationFailed } from '../../core/http/api-error';
import { decodeId, encodeId } from '../../core/ids/ids';
import type { PageRequest } from '../../core/pagination/cursor-page';
import { v2SinceKeyset } from '../../core/pagination/v2-updated-since';
import { DateTime, nullable, V2UnlinkedResourceSchema } from '../../core/openapi/declared-shape';
import { ClientCreateRequest, ClientUpdateRequest } from './dto/client.dto';
import { OAuthClient, TokenFamily } from './oauth.entities';
import { VerifiedClients } from './verified-clients';

/**
 * The /v2 client resource, declared once (core/openapi/declared-shape.ts): the type of present's
 * result and the /v2/clients answers of /openapi.json (the published ones are open objects).
 */
export const ClientSchema = V2UnlinkedResourceSchema(
  'clients',
  Type.Object({
    name: Type.String(),
    description: nullable(Type.String()),
    client_id: Type.String({ description: 'The OAuth client_id.' }),
    scopes: Type.Array(Type.String(), { description: 'The scopes the client may be granted.' }),
    is_active: Type.Boolean(),
    ip_allowlist: Type.Array(Type.String(), { description: 'IP addresses and CIDR blocks the client may call from; empty: any.' }),
    token_endpoint_auth_method: Type.String({ description: 'client_secret_basic, client_secret_post or none (a public client).' }),
    grant_types: Type.Array(Type.String()),
    redirect_uris: Type.Array(Type.String()),
    created_at: DateTime(),
    updated_at: DateTime(),
    deactivated_at: nullable(DateTime()),
    client_secret: Type.Optional(Type.String({ description: 'Only in the answer of the request that made it (create, rotate-secret): shown this once.' })),
  }),
  { description: 'An OAuth client of the organization.' },
);
export type ClientResource = Static<typeof ClientSchema>;

/** Parse an allowlist entry: an IP address or a CIDR block. */
function parseAllowEntry(entry: string): { address: string; prefix?: number; family: 'ipv4' | 'ipv6' } | null {
  const [address, prefixText, extra] = entry.trim().split('/');
  if (extra !== undefined) return null;
  const v = isIP(address);
  if (!v) return null;
  const family = v === 4 ? 'ipv4' : 'ipv6';
  if (prefixText === undefined) return { address, family };
  if (!/^\d{1,3}$/.test(prefixText)) return null;
  const prefix = Number(prefixText);
  if (prefix > (v === 4 ? 32 : 128)) return null;
  return { address, prefix, family };
}

export function ipAllowed(allowlist: string[], ip: string): boolean {
  if (!allowlist.length) return true;
  const list = new BlockList();
  for (const entry of allowlist) {
    const p = parseAllowEntry(entry);
    if (!p) continue;
    if (p.prefix === undefined) list.addAddress(p.address, p.family);
    else list.addSubnet(p.address, p.prefix, p.family);
  }
  const mapped = ip.startsWith('::ffff:') && isIP(ip.slice(7)) === 4 ? ip.slice(7) : ip;
  const family = isIP(mapped) === 6 ? 'ipv6' : 'ipv4';
  return list.check(mapped, family);
}

/** A client_id is global (it names the client before its organization is known, and a registered client has none until approved). */
const CLIENT_BY_CLIENT_ID = 'unscoped: an OAuth client is found by its client_id';
@Injectable()
export class ClientsService {
  constructor(
    @InjectRepository(OAuthClient) private readonly clients: Repository<OAuthClient>,
    @InjectRepository(TokenFamily) private readonly families: Repository<TokenFamily>,
    private readonly auth: AuthService,
    private readonly verifiedClients: VerifiedClients,
  ) {}

  /** Resolve the scopes a create/update asks for, refusing unknown ones and any the caller lacks. */
  private resolveScopes(principal: Principal, codenames: string[] | null | undefined, preset: string | null | undefined): string[] | undefined {
    if ((codenames === undefined || codenames === null) && (preset === undefined || preset === null)) return undefined;
    const wanted = new Set<string>(codenames ?? []);
    if (preset !== undefined && preset !== null) {
      const p = SCOPE_PRESETS[preset];
      if (!p) throw new ValidationFailed([{ pointer: '/scope_preset', field: 'scope_preset', message: `unknown preset "${preset}"; one of ${Object.keys(SCOPE_PRESETS).join(', ')}` }]);
      p.forEach((s) => wanted.add(s));
    }
    const unknown = [...wanted].filter((s) => !ALL_SCOPES.has(s));
    if (unknown.length) throw new ValidationFailed([{ pointer: '/scope_codenames', field: 'scope_codenames', message: `unknown scopes: ${unknown.join(', ')}` }]);
    const lacking = [...wanted].filter((s) => !principal.scopes.has(s));
    if (lacking.length) {
      throw forbidden(`A client cannot be given scopes the caller lacks: ${lacking.join(', ')}.`, {
        headers: { 'WWW-Authenticate': `Bearer error="insufficient_scope", scope="${lacking.join(' ')}"` },
      });
    }
    return [...wanted].sort();
  }

  private checkAllowlist(list: string[] | null | undefined) {
    if (!list) return;
    list.forEach((entry, i) => {
      if (!parseAllowEntry(entry)) throw new ValidationFailed([{ pointer: `/ip_allowlist/${i}`, field: `ip_allowlist.${i}`, message: 'must be an IP address or CIDR block' }]);
    });
  }

  /** By creation, or with filter[updated_since] the clients changed since, by last change (oauth_clients_org_updated_idx). */
  async list(principal: Principal, page: PageRequest, since?: Date): Promise<OAuthClient[]> {
    const qb = this.clients.createQueryBuilder('c').where('c.organization_id = :org', { org: principal.organizationId });
    return v2SinceKeyset(qb, 'c', page, since).getMany();
  }

  async get(principal: Principal, publicId: string): Promise<OAuthClient> {
    const id = decodeId('client', publicId);
    const client = id ? await this.clients.findOne({ where: { id, organizationId: principal.organizationId } }) : null;
    if (!client) throw notFound('Client not found.');
    return client;
  }

  async create(principal: Principal, dto: ClientCreateRequest): Promise<{ client: OAuthClient; secret: string }> {
    const scopes = this.resolveScopes(principal, dto.scope_codenames, dto.scope_preset) ?? [];
    this.checkAllowlist(dto.ip_allowlist);
    const secret = newClientSecret();
    const client = await this.clients.save(
      this.clients.create({
        organizationId: principal.organizationId,
        clientId: newClientId(),
        secretHash: sha256(secret),
        name: dto.name,
        description: dto.description ?? null,
        scopes,
        isActive: true,
        ipAllowlist: dto.ip_allowlist ?? [],
        redirectUris: [],
        tokenEndpointAuthMethod: 'client_secret_post',
        grantTypes: ['client_credentials'],
        responseTypes: [],
        isDynamic: false,
        isBootstrap: false,
        deactivatedAt: null,
      }),
    );
    return { client, secret };
  }

  /**
   * The rule of create and update, applied to every operation on an existing client: the calling
   * token must hold every scope of the target client. Otherwise a token with `clients:write` alone
   * could rotate the secret of (or re-point the allowlist of) a stronger client and mint its tokens.
   */
  private checkTarget(principal: Principal, client: OAuthClient) {
    const lacking = client.scopes.filter((s) => !principal.scopes.has(s));
    if (lacking.length) {
      throw forbidden(`This client holds scopes the calling token lacks (${lacking.join(', ')}); only a token holding all of a client's scopes may change it.`, {
        headers: { 'WWW-Authenticate': `Bearer error="insufficient_scope", scope="${lacking.join(' ')}"` },
      });
    }
  }

  /**
   * Run a change on one client of the caller's organization, inside a transaction holding its row
   * lock, after the 404 and scope checks: a concurrent change of its scopes cannot slip between the
   * check and the write.
   */
  private changeTarget<T>(principal: Principal, publicId: string, change: (m: EntityManager, client: OAuthClient) => Promise<T>): Promise<T> {
    const id = decodeId('client', publicId);
    if (!id) throw notFound('Client not found.');
    return this.clients.manager.transaction(async (m) => {
      const client = await m.findOne(OAuthClient, { where: { id, organizationId: principal.organizationId }, lock: { mode: 'pessimistic_write' } });
      if (!client) throw notFound('Client not found.');
      this.checkTarget(principal, client);
      return change(m, client);
    });
  }

  async update(principal: Principal, publicId: string, dto: ClientUpdateRequest): Promise<OAuthClient> {
    const updated = await this.changeTarget(principal, publicId, async (m, client) => {
      if (!client.isActive) throw notFound('Client not found.');
      const scopes = this.resolveScopes(principal, dto.scope_codenames, dto.scope_preset);
      this.checkAllowlist(dto.ip_allowlist);
      if (dto.name !== undefined && dto.name !== null) client.name = dto.name;
      if (dto.description !== undefined) client.description = dto.description;
      if (scopes) client.scopes = scopes;
      if (dto.ip_allowlist !== undefined && dto.ip_allowlist !== null) client.ipAllowlist = dto.ip_allowlist;
      return this.saveInOrg(m, client, { name: client.name, description: client.description, scopes: client.scopes, ipAllowlist: client.ipAllowlist });
    });
    // after the commit: cached verifications carry the old scopes and allowlist
    this.auth.forgetClient(updated.id);
    return updated;
  }

  /** Deactivate: its tokens are refused from then on (at once here, within seconds elsewhere). */
  async deactivate(principal: Principal, publicId: string): Promise<void> {
    const client = await this.changeTarget(principal, publicId, async (m, client) => {
      if (client.isActive) {
        await m.update(OAuthClient, { id: client.id, organizationId: principal.organizationId }, { isActive: false, deactivatedAt: new Date() });
        await m.update(TokenFamily, { clientId: client.id, organizationId: principal.organizationId, revokedAt: IsNull() }, { revokedAt: new Date() });
      }
      return client;
    });
    this.auth.forgetClient(client.id);
  }

  async rotateSecret(principal: Principal, publicId: string): Promise<{ client: OAuthClient; secret: string }> {
    const rotated = await this.changeTarget(principal, publicId, async (m, client) => {
      if (!client.isActive) throw notFound('Client not found.');
      if (client.tokenEndpointAuthMethod === 'none') throw new ApiError(409, 'A public client has no secret to rotate.');
      const secret = newClientSecret();
      client.secretHash = sha256(secret);
      await this.saveInOrg(m, client, { secretHash: client.secretHash });
      return { client, secret };
    });
    // after the commit: the old secret is refused at once (this process) or as soon as the message arrives (others)
    this.auth.forgetClient(rotated.client.id);
    return rotated;
  }

  /** Write `changes` to a client of the caller's organization (id AND organization_id), refreshing its updated_at. */
  private async saveInOrg(m: EntityManager, client: OAuthClient, changes: Partial<OAuthClient>): Promise<OAuthClient> {
    const r = await m.createQueryBuilder().update(OAuthClient).set(changes).where({ id: client.id, organizationId: client.organizationId }).returning(['updated_at']).execute();
    if (r.raw?.[0]?.updated_at) client.updatedAt = r.raw[0].updated_at;
    return client;
  }

  /**
   * Find an active client by its client_id and check its secret in constant time. A confidential
   * client of an organization whose secret was verified here within AUTH_CACHE_SECONDS is answered
   * from AuthService's verified-clients cache (the row and a keyed hash of that secret; dropped at
   * once by any change of the client: update, rotate-secret, deactivation, see forgetClient).
   */
  async authenticate(clientId: string, secret: string | undefined): Promise<OAuthClient | null> {
    if (secret) {
      const cached = this.verifiedClients.get<OAuthClient>(clientId, secret);
      if (cached) return cached;
    }
    const startedAt = this.verifiedClients.lookupStarted();
    const client = await this.clients.findOne({ where: { clientId }, comment: CLIENT_BY_CLIENT_ID });
    if (!client || !client.isActive) {
      constantTimeEqual(sha256(secret ?? ''), sha256('')); // same work either way
      return null;
    }
    if (client.tokenEndpointAuthMethod === 'none') return secret ? null : client;
    if (!secret || !client.secretHash || !constantTimeEqual(sha256(secret), client.secretHash)) return null;
    // only clients bound to an organization: a registered client's binding (authorize.service) is not an invalidation point
    if (client.organizationId) this.verifiedClients.remember(clientId, client.id, secret, client, startedAt);
    return client;
  }

  findByClientId(clientId: string): Promise<OAuthClient | null> {
    return this.clients.findOne({ where: { clientId }, comment: CLIENT_BY_CLIENT_ID });
  }

  present(client: OAuthClient, secret?: string): ClientResource {
    return {
      type: 'clients',
      id: encodeId('client', client.id),
      attributes: {
        name: client.name,
        description: client.description,
        client_id: client.clientId,
        scopes: client.scopes,
        is_active: client.isActive,
        ip_allowlist: client.ipAllowlist,
        token_endpoint_auth_method: client.tokenEndpointAuthMethod,
        grant_types: client.grantTypes,
        redirect_uris: client.redirectUris,
        created_at: client.createdAt.toISOString(),
        updated_at: client.updatedAt.toISOString(),
        deactivated_at: client.deactivatedAt ? client.deactivatedAt.toISOString() : null,
        ...(secret ? { client_secret: secret } : {}),
      },
    };
  }
}
