import { DataSource, EntityManager } from 'typeorm';
import type { Principal } from '../../core/auth/principal';
import type { Domain } from '../domains/domain.entity';
import { DomainsService } from '../domains/domains.service';
import { lockLive, Program, softDelete } from './program-writes';

/** How an administrative service reads its program back (PlansService, CourseSeriesService: LivePrograms). */
interface ProgramReads<V> {
  readByUuid(p: Principal, domain: Domain, uuid: string): Promise<V>;
}

/**
 * The base of a program's administrative service (PlansAdminService, CourseSeriesAdminService):
 * a write finds the caller's domain by name, runs in one transaction and answers the program as
 * read back; DELETE soft-deletes the domain's live program (404 once deleted).
 */
export abstract class ProgramAdminService<V> {
  protected constructor(
    private readonly program: Program,
    protected readonly ds: DataSource,
    private readonly domains: DomainsService,
    private readonly reads: ProgramReads<V>,
  ) {}

  /** `write` in one transaction on the domain named `domainName` (it answers the program's uuid), then the program read back. */
  protected async written(p: Principal, domainName: string, write: (m: EntityManager, domain: Domain) => Promise<string>): Promise<V> {
    const domain = await this.domains.requireByName(p, domainName);
    const id = await this.ds.transaction((m) => write(m, domain));
    return this.reads.readByUuid(p, domain, id);
  }

  /** The domain's live program `publicId`, locked for the transaction's write (404 when none). */
  protected locked(m: EntityManager, p: Principal, domain: Domain, publicId: string): Promise<{ id: string }> {
    return lockLive(m, this.program, p.organizationId, domain.id, publicId);
  }

  async remove(p: Principal, domainName: string, publicId: string): Promise<void> {
    const domain = await this.domains.requireByName(p, domainName);
    await this.ds.transaction(async (m) => softDelete(m, this.program, p.organizationId, (await this.locked(m, p, domain, publicId)).id));
  }
}
