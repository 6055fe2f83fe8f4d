import { Injectable } from '@nestjs/common';
import { X509Certificate } from 'node:crypto';
import { DataSource } from 'typeorm';
import type { Principal } from '../../core/auth/principal';
import { AppConfig, issuerUrl } from '../../core/config/config';
import { scoped } from '../../core/database/scoped';
import { decrypt, encrypt } from '../../core/crypto/crypto';
import { FieldProblem, notFound, ValidationFailed } from '../../core/http/api-error';
import { encodeId } from '../../core/ids/ids';
import { checkUrl } from '../../core/net/guarded-http';
import { AdminRolesService, assertCallerHolds } from '../organizations/admin-roles.service';
import { discover } from './oidc-client';
import type { OrganizationSsoRow } from './organization-sso.store';
import { Type, type Static } from '@sinclair/typebox';
import { DateTime } from '../../core/openapi/declared-shape';

/** The organization's SSO row (the name the module's code uses). */
export type Row = OrganizationSsoRow;

const uri = (options: { description?: string } = {}) => Type.String({ format: 'uri', ...options });
const SSO_COMMON = {
  jit: Type.Boolean({ description: 'Unknown administrators are created at their first sign-in' }),
  default_role: Type.String({ description: 'The role of an administrator created at sign-in' }),
  login_url: uri({ description: 'Where sign-in with the identity provider starts' }),
  created_at: DateTime(),
  updated_at: DateTime(),
};

/** The OIDC configuration as the service's view answers it. */
const OidcConfigSchema = Type.Object(
  {
    protocol: Type.Literal('oidc'),
    issuer: uri(),
    client_id: Type.String(),
    ...SSO_COMMON,
    redirect_uri: uri({ description: 'The redirect URI to register at the identity provider' }),
  },
  { title: 'OIDC' },
);

/** The SAML configuration as the service's view answers it. */
const SamlConfigSchema = Type.Object(
  {
    protocol: Type.Literal('saml'),
    idp_entity_id: Type.String(),
    idp_sso_url: uri(),
    idp_certificate: Type.String({ description: "The identity provider's signing certificate (PEM)" }),
    ...SSO_COMMON,
    sp_entity_id: uri(),
    acs_url: uri(),
    metadata_url: uri(),
  },
  { title: 'SAML' },
);

/**
 * What the service's view answers, declared once (core/openapi/declared-shape.ts): the OIDC or the
 * SAML configuration (`oneOf`, told apart by `protocol`); the client secret never.
 */
export const SsoConfigSchema = Type.Unsafe<Static<typeof OidcConfigSchema> | Static<typeof SamlConfigSchema>>({ oneOf: [OidcConfigSchema, SamlConfigSchema] });
export type SsoConfigView = Static<typeof SsoConfigSchema>;

const MAX = { text: 1024, url: 2048, cert: 16_384 };

/**
 * The organization's identity provider (`organization_sso`, owned by this module): `GET`/`PUT`/`DELETE
 * /v1/organization/sso` and the CLI's show-sso / set-sso / remove-sso. The OIDC client secret is sealed
 * (AES-256-GCM with APP_SECRET) and never answered.
 */
@Injectable()
export class SsoConfigService {
  constructor(
    private readonly ds: DataSource,
    private readonly config: AppConfig,
    private readonly roles: AdminRolesService,
  ) {}

  async row(orgId: string): Promise<Row | null> {
    const rows = await scoped(this.ds, orgId).query<Row[]>(`SELECT * FROM organization_sso WHERE organization_id = $org`);
    return rows[0] ?? null;
  }

  urls(orgId: string) {
    const base = `${issuerUrl(this.config).replace(/\/+$/, '')}/auth/sso/${encodeId('organization', orgId)}`;
    return { login_url: `${base}/start`, redirect_uri: `${base}/oidc/callback`, acs_url: `${base}/saml/acs`, metadata_url: `${base}/saml/metadata`, sp_entity_id: `${base}/saml/metadata` };
  }

  private view(r: Row): SsoConfigView {
    const u = this.urls(r.organization_id);
    const common = { jit: r.jit, default_role: r.default_role, login_url: u.login_url, created_at: new Date(r.created_at).toISOString(), updated_at: new Date(r.updated_at).toISOString() };
    if (r.protocol === 'oidc') return { protocol: 'oidc', issuer: r.settings.issuer, client_id: r.settings.client_id, ...common, redirect_uri: u.redirect_uri };
    return {
      protocol: 'saml',
      idp_entity_id: r.settings.idp_entity_id,
      idp_sso_url: r.settings.idp_sso_url,
      idp_certificate: r.settings.idp_certificate,
      ...common,
      sp_entity_id: u.sp_entity_id,
      acs_url: u.acs_url,
      metadata_url: u.metadata_url,
    };
  }

  async get(p: Principal | { organizationId: string }) {
    const r = await this.row(p.organizationId);
    if (!r) throw notFound('Single sign-on is not configured for this organization.');
    return this.view(r);
  }

  async remove(p: Principal | { organizationId: string }): Promise<void> {
    const rows = await scoped(this.ds, p.organizationId).query<Pick<Row, 'organization_id'>[]>(`DELETE FROM organization_sso WHERE organization_id = $org RETURNING organization_id`);
    if (!rows.length) throw notFound('Single sign-on is not configured for this organization.');
  }

  async put(p: Principal | 'cli', raw: unknown, cliOrgId?: string) {
    const org = p === 'cli' ? cliOrgId! : p.organizationId;
    const body = raw && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
    const problems: FieldProblem[] = [];
    const bad = (field: string, message: string) => problems.push({ field, message });
    const text = (field: string, max = MAX.text): string | undefined => {
      const v = body[field];
      if (v === undefined || v === null || v === '') return void bad(field, 'This field is required.');
      if (typeof v !== 'string') return void bad(field, 'Not a valid string.');
      if (v.length > max) return void bad(field, `Ensure this field has no more than ${max} characters.`);
      return v.trim();
    };
    const url = (field: string): string | undefined => {
      const v = text(field, MAX.url);
      if (v === undefined) return undefined;
      try {
        const u = checkUrl(v, this.config.ALLOW_PRIVATE_URLS);
        if (u.protocol !== 'https:' && !this.config.ALLOW_PRIVATE_URLS) return void bad(field, 'Enter an https URL.');
        if (u.hash) return void bad(field, 'The URL must not have a fragment.');
        return v;
      } catch (e) {
        return void bad(field, `Enter a valid URL (${(e as Error).message}).`);
      }
    };
    const protocol = body.protocol;
    if (protocol !== 'oidc' && protocol !== 'saml') {
      throw new ValidationFailed([{ field: 'protocol', message: '"oidc" or "saml" is required.' }], 400);
    }
    let jit = false;
    if (body.jit !== undefined && body.jit !== null) {
      if (typeof body.jit !== 'boolean') bad('jit', 'Must be a valid boolean.');
      else jit = body.jit;
    }
    let defaultRole = 'reporter';
    if (body.default_role !== undefined && body.default_role !== null) {
      if (typeof body.default_role !== 'string' || !body.default_role || body.default_role.length > 64) bad('default_role', 'Not a valid role name.');
      else defaultRole = body.default_role;
    }

    const existing = await this.row(org);
    let settings: Record<string, string> = {};
    let secretEnc: string | null = null;
    if (protocol === 'oidc') {
      const issuer = url('issuer');
      const clientId = text('client_id');
      let secret: string | undefined;
      if (body.client_secret === undefined && existing?.protocol === 'oidc' && existing.client_secret_enc && existing.settings.client_id === clientId && existing.settings.issuer === issuer) {
        secret = decrypt(this.config.APP_SECRET, existing.client_secret_enc); // unchanged client: the stored secret stays
      } else secret = text('client_secret');
      if (issuer && clientId && secret && !problems.length) {
        try {
          await discover({ issuer, client_id: clientId }, secret, this.config.ALLOW_PRIVATE_URLS, true);
        } catch (e) {
          bad('issuer', `OpenID Connect discovery at ${issuer.replace(/\/+$/, '')}/.well-known/openid-configuration failed: ${String((e as Error).message).slice(0, 200)}`);
        }
      }
      settings = { issuer: issuer!, client_id: clientId! };
      secretEnc = secret ? encrypt(this.config.APP_SECRET, secret) : null;
    } else {
      const entityId = text('idp_entity_id');
      const ssoUrl = url('idp_sso_url');
      const cert = text('idp_certificate', MAX.cert);
      if (cert !== undefined) {
        try {
          if (!/-----BEGIN CERTIFICATE-----/.test(cert)) throw new Error('not PEM');
          new X509Certificate(cert);
        } catch {
          bad('idp_certificate', 'Enter the identity provider\'s signing certificate in PEM ("-----BEGIN CERTIFICATE-----").');
        }
      }
      settings = { idp_entity_id: entityId!, idp_sso_url: ssoUrl!, idp_certificate: cert! };
    }
    if (!problems.length) {
      try {
        const scopes = await this.roles.scopesOfRole(this.ds, org, defaultRole);
        if (jit) assertCallerHolds(p, scopes);
      } catch (e) {
        if (e instanceof ValidationFailed) bad('default_role', `"${defaultRole.slice(0, 64)}" is not a role of this organization.`);
        else throw e;
      }
    }
    if (problems.length) throw new ValidationFailed(problems, 400);
    const [row] = await scoped(this.ds, org).query<Row[]>(
      `INSERT INTO organization_sso (organization_id, protocol, settings, client_secret_enc, jit, default_role) VALUES ($org, $1, $2, $3, $4, $5)
       ON CONFLICT (organization_id) DO UPDATE SET protocol = EXCLUDED.protocol, settings = EXCLUDED.settings, client_secret_enc = EXCLUDED.client_secret_enc,
         jit = EXCLUDED.jit, default_role = EXCLUDED.default_role, updated_at = date_trunc('milliseconds', now())
       RETURNING *`,
      [protocol, JSON.stringify(settings), secretEnc, jit, defaultRole],
    );
    return this.view(row);
  }

  /** The sign-in link for an organization with SSO (the consent page's "Sign in with your identity provider"); null without. */
  async loginUrl(orgId: string, returnTo: string): Promise<string | null> {
    const rows = await scoped(this.ds, orgId).query<unknown[]>(`SELECT 1 FROM organization_sso WHERE organization_id = $org`);
    if (!rows.length) return null;
    return `${this.urls(orgId).login_url}?return_to=${encodeURIComponent(returnTo)}`;
  }
}
