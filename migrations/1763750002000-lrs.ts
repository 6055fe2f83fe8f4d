import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 30, the LRS at /xapi/ (CONVENTIONS §18; docs/decisions/lrs.md):
 * - lrs_keys: an organization's LRS credentials (HTTP Basic): the public key, the secret's SHA-256,
 *   read and/or write rights; a launch's own key (cmi5 fetch, TinCan `auth`) names its launch and expires
 *   with the launch's session;
 * - lrs_statements: every statement as stored (`statement` jsonb, exactly what GET answers), with
 *   the columns its queries filter on, each served by an index: the actor / object agent
 *   (`agents`), every agent it names (`related_agents`), the verb, the object activity, every
 *   activity it names (`related_activities`), the registration, and `stored` with a sequence for a
 *   stable order and `more` paging; `voided` once a voiding statement names it; `voiding_target` the statement a StatementRef object names (a voiding statement's target, or any reference);
 * - lrs_attachments: attachment content by its SHA-2, per organization;
 * - lrs_documents: state, activity profile and agent profile documents, with content type and ETag.
 */
export class Lrs1763750002000 implements MigrationInterface {
  name = 'Lrs1763750002000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE lrs_keys (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        key text NOT NULL,
        secret_hash bytea NOT NULL,
        can_read boolean NOT NULL,
        can_write boolean NOT NULL,
        name text NOT NULL DEFAULT '',
        launch_id uuid,
        expires_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
        CONSTRAINT lrs_keys_key_key UNIQUE (key),
        CONSTRAINT lrs_keys_launch_id_fkey FOREIGN KEY (organization_id, launch_id) REFERENCES content_launches (organization_id, id) ON DELETE CASCADE,
        CONSTRAINT lrs_keys_organization_id_id_key UNIQUE (organization_id, id)
      )`);
    await q.query(`CREATE INDEX lrs_keys_org_idx ON lrs_keys (organization_id, created_at, id)`);
    await q.query(`CREATE INDEX lrs_keys_launch_idx ON lrs_keys (organization_id, launch_id) WHERE launch_id IS NOT NULL`);
    await q.query(`
      CREATE TABLE lrs_statements (
        seq bigserial NOT NULL,
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        id uuid NOT NULL,
        statement jsonb NOT NULL,
        stored timestamptz NOT NULL,
        verb_id text NOT NULL,
        activity_id text,
        agents text[] NOT NULL,
        related_agents text[] NOT NULL,
        related_activities text[] NOT NULL,
        registration uuid,
        voiding_target uuid,
        voided boolean NOT NULL DEFAULT false,
        attachment_hashes text[] NOT NULL DEFAULT '{}',
        PRIMARY KEY (organization_id, id)
      )`);
    await q.query(`CREATE UNIQUE INDEX lrs_statements_seq_idx ON lrs_statements (organization_id, stored, seq)`);
    await q.query(`CREATE INDEX lrs_statements_verb_idx ON lrs_statements (organization_id, verb_id, stored, seq)`);
    await q.query(`CREATE INDEX lrs_statements_activity_idx ON lrs_statements (organization_id, activity_id, stored, seq)`);
    await q.query(`CREATE INDEX lrs_statements_registration_idx ON lrs_statements (organization_id, registration, stored, seq) WHERE registration IS NOT NULL`);
    await q.query(`CREATE INDEX lrs_statements_ref_idx ON lrs_statements (organization_id, voiding_target) WHERE voiding_target IS NOT NULL`);
    await q.query(`CREATE INDEX lrs_statements_agents_idx ON lrs_statements USING gin (agents)`);
    await q.query(`CREATE INDEX lrs_statements_related_agents_idx ON lrs_statements USING gin (related_agents)`);
    await q.query(`CREATE INDEX lrs_statements_related_activities_idx ON lrs_statements USING gin (related_activities)`);
    await q.query(`
      CREATE TABLE lrs_attachments (
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        sha2 text NOT NULL,
        content_type text NOT NULL,
        content bytea NOT NULL,
        PRIMARY KEY (organization_id, sha2)
      )`);
    await q.query(`
      CREATE TABLE lrs_documents (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        kind text NOT NULL CHECK (kind IN ('state', 'activity_profile', 'agent_profile')),
        activity_id text NOT NULL DEFAULT '',
        agent text NOT NULL DEFAULT '',
        registration text NOT NULL DEFAULT '',
        doc_id text NOT NULL,
        content bytea NOT NULL,
        content_type text NOT NULL,
        etag text NOT NULL,
        updated timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE UNIQUE INDEX lrs_documents_key_idx ON lrs_documents (organization_id, kind, activity_id, agent, registration, doc_id)`);
    await q.query(`CREATE INDEX lrs_documents_updated_idx ON lrs_documents (organization_id, kind, activity_id, agent, registration, updated)`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const t of ['lrs_documents', 'lrs_attachments', 'lrs_statements', 'lrs_keys']) await q.query(`DROP TABLE IF EXISTS ${t}`);
  }
}
