import { Injectable } from '@nestjs/common';
import * as argon2 from 'argon2';
import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { SCOPE_CODENAMES } from '../../core/auth/scopes';
import { randomToken, sha256 } from '../../core/crypto/crypto';
import { ApiError } from '../../core/http/api-error';
import { encodeId } from '../../core/ids/ids';
import { DomainsService } from '../domains/domains.service';
import { newClientId, newClientSecret } from '../../core/auth/client-credentials';
import { Admin, ApiKey, Organization } from './organization.entity';
import { OrganizationOAuth } from './organization-oauth';
import { unscoped } from '../../core/database/scoped';

export interface CreateOrgInput {
  name: string;
  domain?: string;
  adminEmail?: string;
  adminPassword?: string;
}

export interface CreatedOrg {
  organization_id: string;
  client_id: string;
  client_secret: string;
  api_key: string;
  domain_name: string;
  scopes: string[];
  admin_id?: string;
}

export const ARGON2_OPTIONS = { type: argon2.argon2id, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

function slug(name: string): string {
  return (
    name
      .toLowerCase()
      .normalize('NFKD')
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 40) || 'org'
  );
}

/** Bootstrap of organizations (CLI only): the org, its first domain, an all-scope client and API key. */
@Injectable()
export class OrganizationsService {
  constructor(
    private readonly ds: DataSource,
    private readonly domains: DomainsService,
    private readonly oauth: OrganizationOAuth,
  ) {}

  async create(input: CreateOrgInput): Promise<CreatedOrg> {
    const name = input.name?.trim();
    if (!name) throw new ApiError(400, '--name is required.');
    if ((input.adminEmail && !input.adminPassword) || (!input.adminEmail && input.adminPassword)) {
      throw new ApiError(400, '--admin-email and --admin-password go together.');
    }
    if (input.adminEmail && !/^[^@\s]+@[^@\s]+$/.test(input.adminEmail)) throw new ApiError(400, '--admin-email is not an email address.');
    if (input.adminPassword && input.adminPassword.length < 8) throw new ApiError(400, '--admin-password must have at least 8 characters.');
    const passwordHash = input.adminPassword ? await argon2.hash(input.adminPassword, ARGON2_OPTIONS) : undefined;
    const clientSecret = newClientSecret();
    const apiKey = `cpk_${randomToken(32)}`;
    const clientId = newClientId();
    const scopes = [...SCOPE_CODENAMES];

    const org = await this.ds.transaction(async (m) => {
      const org = await m.save(Organization, m.create(Organization, { name, passwordMinLength: 8 }));
      await m.insert(ApiKey, { organizationId: org.id, keyHash: sha256(apiKey), revokedAt: null });
      await this.oauth.insertBootstrapClient(m, { organizationId: org.id, clientId, secretHash: sha256(clientSecret), name: `${name} bootstrap client`, scopes });
      let adminId: string | undefined;
      if (input.adminEmail && passwordHash) {
        const exists = await m
          .createQueryBuilder(Admin, 'a')
          .comment('unscoped: administrator emails are unique across organizations')
          .where('lower(a.email) = lower(:e)', { e: input.adminEmail })
          .getCount();
        if (exists) throw new ApiError(409, 'An administrator with this email already exists.');
        const admin = await m.save(Admin, m.create(Admin, { organizationId: org.id, email: input.adminEmail.toLowerCase(), passwordHash }));
        adminId = admin.id;
      }
      return { org, adminId };
    });

    let domainName = input.domain;
    if (!domainName) {
      domainName = `${slug(name)}.localhost`;
      if (await this.domainTaken(domainName)) domainName = `${slug(name)}-${randomBytes(3).toString('hex')}.localhost`;
    }
    try {
      const domain = await this.domains.create(org.org.id, domainName);
      domainName = domain.name;
    } catch (e) {
      await this.ds.query(`DELETE FROM organizations WHERE id = $1`, [org.org.id]);
      throw e;
    }
    return {
      organization_id: encodeId('organization', org.org.id),
      client_id: clientId,
      client_secret: clientSecret,
      api_key: apiKey,
      domain_name: domainName,
      scopes,
      ...(org.adminId ? { admin_id: encodeId('admin', org.adminId) } : {}),
    };
  }

  private async domainTaken(name: string): Promise<boolean> {
    const rows = await unscoped(this.ds, 'domain names are unique across organizations').query<unknown[]>(`SELECT 1 FROM domains WHERE lower(name) = lower($1)`, [name]);
    return rows.length > 0;
  }
}
