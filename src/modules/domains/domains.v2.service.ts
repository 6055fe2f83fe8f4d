import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import type { Principal } from '../../core/auth/principal';
import { orgRowOr404 } from '../../core/pagination/org-rows';
import { applyKeyset, PageRequest } from '../../core/pagination/cursor-page';
import { Domain, DomainAccess } from './domain.entity';

export interface DomainV2Filters {
  access?: DomainAccess;
  /** lowercase hostname */
  name?: string;
  /** filter[updated_since]: changed at or after, ordered by last change (updated_at, id) on domains_org_updated_idx */
  updatedSince?: Date;
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
    if (!f.updatedSince) return applyKeyset(qb, 'd', page).getMany();
    // by last change (docs/decisions/data-out.md): the cursor carries (updated_at, id)
    qb.andWhere('d.updated_at >= :since', { since: f.updatedSince });
    if (page.after) qb.andWhere('(d.updated_at, d.id) > (:__t, :__id)', { __t: page.after.t, __id: page.after.id });
    return qb
      .orderBy('d.updated_at', 'ASC')
      .addOrderBy('d.id', 'ASC')
      .limit(page.size + 1)
      .getMany();
  }

  get(p: Principal, publicId: string): Promise<Domain> {
    return orgRowOr404(this.domains, 'domain', publicId, p.organizationId);
  }
}
