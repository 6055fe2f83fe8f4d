/**
 * The `organization_sso` table (sso owns it; docs/decisions/data-access.md): its row type, checked against the
 * migrated schema by row-types.spec.ts.
 */

/** An organization's single sign-on configuration (one row at most per organization). @table organization_sso */
export interface OrganizationSsoRow {
  organization_id: string;
  protocol: 'oidc' | 'saml';
  settings: Record<string, string>;
  client_secret_enc: string | null;
  jit: boolean;
  default_role: string;
  created_at: Date;
  updated_at: Date;
}
