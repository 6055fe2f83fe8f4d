import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, Repository } from 'typeorm';
import { ApiError, notFound } from '../../core/http/api-error';
import type { Principal } from '../../core/auth/principal';
import type { V1PageRequest } from '../../core/pagination/v1-page';
import type { DomainUpdateDto } from './dto/domain-update.dto';
import { Domain } from './domain.entity';

const DOMAIN_NAME = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/;

@Injectable()
export class DomainsService {
  constructor(@InjectRepository(Domain) private readonly domains: Repository<Domain>) {}

  /** Neither interface creates domains: the CLI does (CONVENTIONS.md section 1). */
  async create(organizationId: string, name: string, opts: { private?: boolean } = {}): Promise<Domain> {
    const normalized = name.trim().toLowerCase();
    if (!DOMAIN_NAME.test(normalized)) throw new ApiError(400, `"${name}" is not a valid domain name.`);
    const existing = await this.domains.createQueryBuilder('d').comment('unscoped: domain names are unique across organizations').where('lower(d.name) = :n', { n: normalized }).getOne();
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

  /** A domain of the caller's organization by its name (path parameter), or 404: another organization's name is not found. */
  async requireByName(p: Principal | string, name: string): Promise<Domain> {
    const org = typeof p === 'string' ? p : p.organizationId;
    if (typeof name !== 'string' || name.length > 253 || !/^[-:.0-9a-zA-Z]+$/.test(name)) throw notFound();
    const d = await this.findByName(org, name);
    if (!d) throw notFound();
    return d;
  }

  /** GET /v1/domains: the organization's domains, oldest first. */
  async listV1(p: Principal, page: V1PageRequest): Promise<{ rows: Domain[]; count: number }> {
    const [rows, count] = await this.domains.findAndCount({
      where: { organizationId: p.organizationId },
      order: { createdAt: 'ASC', id: 'ASC' },
      skip: page.offset,
      take: page.pageSize,
    });
    return { rows, count };
  }

  /** PUT/PATCH /v1/domains/{domain_name}: only the members present change. */
  async updateV1(p: Principal, name: string, dto: DomainUpdateDto): Promise<Domain> {
    const d = await this.requireByName(p, name);
    const patch: Partial<Domain> = {};
    if (dto.catalog_title !== undefined) patch.catalogTitle = dto.catalog_title;
    if (dto.access !== undefined) patch.access = dto.access;
    if (dto.access_code_message_html !== undefined) patch.accessCodeMessageHtml = dto.access_code_message_html;
    if (dto.marketing_message !== undefined) patch.marketingMessage = dto.marketing_message;
    if (Object.keys(patch).length) {
      await this.domains.update({ id: d.id, organizationId: p.organizationId }, patch);
      Object.assign(d, patch);
    }
    return d;
  }
}
