import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import type { Principal } from '../../core/auth/principal';
import { orgRowOr404 } from '../../core/database/org-rows';
import { applyKeyset, PageRequest } from '../../core/pagination/cursor-page';
import { Domain, DomainAccess } from './domain.entity';

export interface DomainV2Filters {
  access?: DomainAccess;
  /** lowercase hostname */
  name?: string;
}

/**
 * The /v2 reads of domains (the same rows /v1 serves by name): a cursor page, oldest first, served
 * by domains_org_created_idx (filter[name] by the unique lower(name) index), and one domain by its
 * public id (404 alike for malformed, unknown or another organization's ids).
 */
@Injectable()
export class DomainsV2Service {
  constructor(@InjectRepository(Domain) private readonly domains: Repository<Domain>) {}

  list(p: Principal, page: PageRequest, f: DomainV2Filters): Promise<Domain[]> {
    const qb = this.domains.createQueryBuilder('d').where('d.organization_id = :org', { org: p.organizationId });
    if (f.access !== undefined) qb.andWhere('d.access = :access', { access: f.access });
    if (f.name !== undefined) qb.andWhere('lower(d.name) = :name', { name: f.name });
    return applyKeyset(qb, 'd', page).getMany();
  }

  get(p: Principal, publicId: string): Promise<Domain> {
    return orgRowOr404(this.domains, 'domain', publicId, p.organizationId);
  }
}
