import type { EntityManager } from 'typeorm';
import type { SqlRunner } from '../../core/database/scoped';

/** The bootstrap client of a new organization (create-org). */
export interface BootstrapClient {
  organizationId: string;
  clientId: string;
  secretHash: Buffer;
  name: string;
  scopes: string[];
}

/**
 * What organizations asks of the OAuth tables (`oauth_clients`, `token_families`, owned by
 * modules/auth), each in the caller's transaction. Declared here and provided by modules/auth
 * (`OrganizationOAuthModule`, global), so organizations, below auth in the module graph, imports
 * nothing of it (docs/decisions/module-graph.md).
 */
export abstract class OrganizationOAuth {
  /** Inserts the bootstrap client (confidential, client_credentials only, holding `scopes`). */
  abstract insertBootstrapClient(m: EntityManager, o: BootstrapClient): Promise<void>;
  /** Revokes every live token family whose subject is `subject` in the organization; answers the ids revoked. */
  abstract revokeFamiliesOfSubject(db: SqlRunner, organizationId: string, subject: string): Promise<string[]>;
}
