import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, Repository } from 'typeorm';
import { ApiError } from '../../core/http/api-error';
import { Domain } from './domain.entity';

const DOMAIN_NAME = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/;

@Injectable()
export class DomainsService {
  constructor(@InjectRepository(Domain) private readonly domains: Repository<Domain>) {}

  /** Neither interface creates domains: the CLI does (CONVENTIONS.md section 1). */
  async create(organizationId: string, name: string, opts: { private?: boolean } = {}): Promise<Domain> {
    const normalized = name.trim().toLowerCase();
    if (!DOMAIN_NAME.test(normalized)) throw new ApiError(400, `"${name}" is not a valid domain name.`);
    const existing = await this.domains.createQueryBuilder('d').where('lower(d.name) = :n', { n: normalized }).getOne();
    if (existing) throw new ApiError(409, `The domain "${normalized}" already exists.`);
    return this.domains.save(
      this.domains.create({
        organizationId,
        name: normalized,
        access: opts.private ? 'PRIVATE' : 'PUBLIC',
        catalogTitle: '',
        accessCodeMessageHtml: '',
        marketingMessage: '',
      }),
    );
  }

  findByName(organizationId: string, name: string): Promise<Domain | null> {
    return this.domains.createQueryBuilder('d').where('d.organization_id = :org AND lower(d.name) = lower(:name)', { org: organizationId, name }).getOne();
  }

  findByNames(organizationId: string, names: string[]): Promise<Domain[]> {
    if (!names.length) return Promise.resolve([]);
    return this.domains.find({ where: { organizationId, name: In(names.map((n) => n.toLowerCase())) } });
  }
}
