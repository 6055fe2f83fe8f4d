import { DataSource, EntityManager } from 'typeorm';
import type { Principal } from '../../core/auth/principal';
import type { Domain } from '../domains/domain.entity';
import { PathLookups } from './path-lookups.service';
import type { PublishedPath } from './published-path.entity';

/**
 * A write on the published path `id` of the domain named `domainName` (each 404 as PathLookups
 * answers it): `work` in one transaction, with the path's row first; a failure of the transaction
 * goes through `conflict`, which throws the 400 of a unique violation or the failure itself.
 */
export async function writePublishedPath<T>(
  ds: DataSource,
  lookups: PathLookups,
  p: Principal,
  domainName: string,
  id: string,
  conflict: (e: unknown) => never,
  work: (m: EntityManager, pp: PublishedPath, domain: Domain) => Promise<T>,
): Promise<T> {
  const domain = await lookups.domain(p, domainName);
  try {
    return await ds.transaction(async (m) => work(m, await lookups.publishedPath(m, p, domain, id), domain));
  } catch (e) {
    return conflict(e);
  }
}
