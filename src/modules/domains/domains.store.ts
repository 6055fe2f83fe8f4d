import { scoped, type SqlRunner } from '../../core/database/scoped';
import type { DomainAccess } from './domain.entity';

/**
 * The `domains` table (the domains module owns it): the row type its hand-mapped read answers
 * (row-types.spec.ts checks it against the migrated schema) and that statement
 * (docs/decisions/data-access.md).
 */

/** The columns of a domains row, as PostgreSQL names them. @table domains */
export interface DomainRow {
  organization_id: string;
  created_at: Date;
  id: string;
  updated_at: Date;
  name: string;
  access: DomainAccess;
  catalog_title: string;
  access_code_message_html: string;
  marketing_message: string;
}

/**
 * The organization's domain named `name` (case-insensitive: the unique index on lower(name)
 * finds it), null when there is none. One plain statement: every /v1 domain route resolves its
 * path's domain with it.
 */
export async function loadDomainRowByName(runner: SqlRunner, organizationId: string, name: string): Promise<DomainRow | null> {
  const [row] = await scoped(runner, organizationId).query<DomainRow[]>(
    `SELECT organization_id, created_at, id, updated_at, name, access, catalog_title, access_code_message_html, marketing_message
       FROM domains WHERE organization_id = $org AND lower(name) = lower($1)`,
    [name],
  );
  return row ?? null;
}
