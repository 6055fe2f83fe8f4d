import { MigrationInterface, QueryRunner } from 'typeorm';

const TS = `timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now())`;

/**
 * Identity (issue 31, CONVENTIONS §19; docs/decisions/identity.md):
 * - administrators get a role (`owner`, `admin`, `content-editor`, `reporter`, or a custom role of
 *   their organization), `last_sign_in_at` and `updated_at`; a password becomes optional (an
 *   administrator who signs in only through the organization's identity provider has none).
 *   Existing administrators become owners (they held every scope before roles existed).
 * - `admin_roles`: custom roles, a named scope set per organization.
 * - `audit_events`: the audit log of administrative writes (ids only, no bodies), kept 365 days.
 * - `scim_user_links`: the identity provider's `externalId` of a provisioned student (users.external_id
 *   is the platform's own derived id and stays as it is).
 * - `organization_sso`: the organization's identity provider (OIDC or SAML), its client secret sealed.
 */
export class Identity1763760000000 implements MigrationInterface {
  name = 'Identity1763760000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE admins
      ADD COLUMN role text NOT NULL DEFAULT 'owner',
      ADD COLUMN last_sign_in_at timestamptz,
      ADD COLUMN updated_at ${TS},
      ALTER COLUMN password_hash DROP NOT NULL`);
    await q.query(`CREATE INDEX admins_org_created_idx ON admins (organization_id, created_at, id)`);
    await q.query(`CREATE INDEX admins_org_role_idx ON admins (organization_id, role)`);
    await q.query(`CREATE INDEX token_families_org_subject_idx ON token_families (organization_id, subject) WHERE revoked_at IS NULL`);

    await q.query(`CREATE TABLE admin_roles (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
      name text NOT NULL CHECK (name ~ '^[a-z0-9][a-z0-9_-]{0,62}$'),
      scopes text[] NOT NULL,
      created_at ${TS},
      updated_at ${TS},
      CONSTRAINT admin_roles_org_name_uq UNIQUE (organization_id, name),
      CONSTRAINT admin_roles_org_id_uq UNIQUE (organization_id, id)
    )`);
    await q.query(`CREATE INDEX admin_roles_org_created_idx ON admin_roles (organization_id, created_at, id)`);

    await q.query(`CREATE TABLE audit_events (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
      created_at ${TS},
      actor_type text NOT NULL CHECK (actor_type IN ('client', 'administrator', 'api_key', 'cli')),
      actor_id text,
      client_id text,
      operation text NOT NULL,
      method text NOT NULL,
      route text NOT NULL,
      status integer NOT NULL,
      resource_ids jsonb NOT NULL DEFAULT '{}',
      ip_address text,
      request_id text
    )`);
    await q.query(`CREATE INDEX audit_events_org_created_idx ON audit_events (organization_id, created_at, id)`);
    await q.query(`CREATE INDEX audit_events_created_idx ON audit_events (created_at)`);

    await q.query(`CREATE TABLE scim_user_links (
      organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
      user_id uuid NOT NULL,
      external_id text NOT NULL,
      created_at ${TS},
      PRIMARY KEY (organization_id, user_id),
      CONSTRAINT scim_user_links_user_fkey FOREIGN KEY (organization_id, user_id) REFERENCES users (organization_id, id) ON DELETE CASCADE
    )`);
    await q.query(`CREATE UNIQUE INDEX scim_user_links_external_uq ON scim_user_links (organization_id, external_id)`);

    await q.query(`CREATE TABLE organization_sso (
      organization_id uuid PRIMARY KEY REFERENCES organizations(id) ON DELETE CASCADE,
      protocol text NOT NULL CHECK (protocol IN ('oidc', 'saml')),
      settings jsonb NOT NULL,
      client_secret_enc text,
      jit boolean NOT NULL DEFAULT false,
      default_role text NOT NULL DEFAULT 'reporter',
      created_at ${TS},
      updated_at ${TS}
    )`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const t of ['organization_sso', 'scim_user_links', 'audit_events', 'admin_roles']) await q.query(`DROP TABLE IF EXISTS ${t}`);
    await q.query(`DROP INDEX IF EXISTS token_families_org_subject_idx`);
    await q.query(`DROP INDEX IF EXISTS admins_org_role_idx`);
    await q.query(`DROP INDEX IF EXISTS admins_org_created_idx`);
    await q.query(`UPDATE admins SET password_hash = '' WHERE password_hash IS NULL`);
    await q.query(`ALTER TABLE admins DROP COLUMN role, DROP COLUMN last_sign_in_at, DROP COLUMN updated_at, ALTER COLUMN password_hash SET NOT NULL`);
  }
}
