import { MigrationInterface, QueryRunner } from 'typeorm';

/** Organizations, administrators, API keys, domains and the OAuth server's tables. */
export class Foundation1763700000000 implements MigrationInterface {
  name = 'Foundation1763700000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE EXTENSION IF NOT EXISTS pgcrypto`);
    await q.query(`
      CREATE TABLE organizations (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        name text NOT NULL,
        password_min_length integer NOT NULL DEFAULT 8,
        created_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
        updated_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now())
      )`);
    await q.query(`
      CREATE TABLE admins (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        email text NOT NULL,
        password_hash text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now())
      )`);
    await q.query(`CREATE UNIQUE INDEX admins_email_uq ON admins (lower(email))`);
    await q.query(`
      CREATE TABLE api_keys (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        key_hash bytea NOT NULL UNIQUE,
        created_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
        revoked_at timestamptz
      )`);
    await q.query(`
      CREATE TABLE domains (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        name text NOT NULL,
        access text NOT NULL DEFAULT 'PUBLIC' CHECK (access IN ('PUBLIC', 'PRIVATE', 'PRIVATE_CODE')),
        catalog_title text NOT NULL DEFAULT '',
        access_code_message_html text NOT NULL DEFAULT '',
        marketing_message text NOT NULL DEFAULT '',
        created_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
        updated_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now())
      )`);
    await q.query(`CREATE UNIQUE INDEX domains_name_uq ON domains (lower(name))`);
    await q.query(`CREATE INDEX domains_org_created_idx ON domains (organization_id, created_at, id)`);
    await q.query(`
      CREATE TABLE oauth_clients (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id uuid REFERENCES organizations(id) ON DELETE CASCADE,
        client_id text NOT NULL UNIQUE,
        secret_hash bytea,
        name text NOT NULL,
        description text,
        scopes text[] NOT NULL DEFAULT '{}',
        is_active boolean NOT NULL DEFAULT true,
        ip_allowlist text[] NOT NULL DEFAULT '{}',
        redirect_uris text[] NOT NULL DEFAULT '{}',
        token_endpoint_auth_method text NOT NULL DEFAULT 'client_secret_post',
        grant_types text[] NOT NULL DEFAULT '{client_credentials}',
        response_types text[] NOT NULL DEFAULT '{}',
        is_dynamic boolean NOT NULL DEFAULT false,
        is_bootstrap boolean NOT NULL DEFAULT false,
        created_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
        updated_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
        deactivated_at timestamptz
      )`);
    await q.query(`CREATE INDEX oauth_clients_org_created_idx ON oauth_clients (organization_id, created_at, id)`);
    await q.query(`
      CREATE TABLE token_families (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        client_id uuid NOT NULL REFERENCES oauth_clients(id) ON DELETE CASCADE,
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        subject text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
        revoked_at timestamptz
      )`);
    await q.query(`CREATE INDEX token_families_client_idx ON token_families (client_id)`);
    await q.query(`
      CREATE TABLE refresh_tokens (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        family_id uuid NOT NULL REFERENCES token_families(id) ON DELETE CASCADE,
        token_hash bytea NOT NULL UNIQUE,
        scope text NOT NULL,
        expires_at timestamptz NOT NULL,
        rotated_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now())
      )`);
    await q.query(`CREATE INDEX refresh_tokens_family_idx ON refresh_tokens (family_id)`);
    await q.query(`CREATE INDEX refresh_tokens_expires_idx ON refresh_tokens (expires_at)`);
    await q.query(`
      CREATE TABLE auth_codes (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        code_hash bytea NOT NULL UNIQUE,
        client_id uuid NOT NULL REFERENCES oauth_clients(id) ON DELETE CASCADE,
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        admin_id uuid NOT NULL REFERENCES admins(id) ON DELETE CASCADE,
        redirect_uri text NOT NULL,
        code_challenge text NOT NULL,
        scope text NOT NULL,
        expires_at timestamptz NOT NULL,
        used_at timestamptz,
        family_id uuid REFERENCES token_families(id) ON DELETE SET NULL,
        created_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now())
      )`);
    await q.query(`CREATE INDEX auth_codes_expires_idx ON auth_codes (expires_at)`);
    await q.query(`
      CREATE TABLE signing_keys (
        kid text PRIMARY KEY,
        alg text NOT NULL,
        public_jwk jsonb NOT NULL,
        private_key_enc text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
        retired_at timestamptz
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const t of ['signing_keys', 'auth_codes', 'refresh_tokens', 'token_families', 'oauth_clients', 'domains', 'api_keys', 'admins', 'organizations']) {
      await q.query(`DROP TABLE IF EXISTS ${t}`);
    }
  }
}
