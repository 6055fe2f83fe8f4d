import { EntityManager } from 'typeorm';
import { OAuthClient } from './oauth.entities';

/**
 * The bootstrap client of a new organization (create-org): confidential, client_credentials only,
 * holding the given scopes. oauth_clients belongs to this module; organizations calls this inside
 * its create transaction.
 */
export async function insertBootstrapClient(m: EntityManager, o: { organizationId: string; clientId: string; secretHash: Buffer; name: string; scopes: string[] }): Promise<void> {
  await m.insert(OAuthClient, {
    organizationId: o.organizationId,
    clientId: o.clientId,
    secretHash: o.secretHash,
    name: o.name,
    description: 'Created by create-org; holds every scope.',
    scopes: o.scopes,
    isActive: true,
    ipAllowlist: [],
    redirectUris: [],
    tokenEndpointAuthMethod: 'client_secret_post',
    grantTypes: ['client_credentials'],
    responseTypes: [],
    isDynamic: false,
    isBootstrap: true,
    deactivatedAt: null,
  });
}
