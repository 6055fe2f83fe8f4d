import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, MoreThanOrEqual, Repository } from 'typeorm';
import { ApiError, notFound } from '../../core/http/api-error';
import { fieldError } from '../../core/http/v1-rules';
import type { DomainCreateDto } from './dto/domain-create.dto';
import type { Principal } from '../../core/auth/principal';
import type { V1PageRequest } from '../../core/pagination/v1-page';
import type { DomainUpdateDto } from './dto/domain-update.dto';
import { Domain, DomainAccess } from './domain.entity';
import { isUniqueViolation } from '../../core/database/sql';
import { scoped } from '../../core/database/scoped';
import { type DomainRow, loadDomainRowByName } from './domains.store';

const DOMAIN_NAME = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/;

/** The Domain entity of a row, its members in the order TypeORM's own reads give them. */
function domainOf(r: DomainRow): Domain {
  const d = new Domain();
  d.organizationId = r.organization_id;
  d.createdAt = r.created_at;
  d.id = r.id;
  d.updatedAt = r.updated_at;
  d.name = r.name;
  d.access = r.access;
  d.catalogTitle = r.catalog_title;
  d.accessCodeMessageHtml = r.access_code_message_html;
  d.marketingMessage = r.marketing_message;
  return d;
}

@Injectable()
export class DomainsService {
  constructor(@InjectRepository(Domain) private readonly domains: Repository<Domain>) {}

  /**
   * A new domain of the organization (the CLI's create-org and create-domain, and POST /v1/domains):
   * names are host names, lowercased, unique on the server (409 when taken, also when two requests
   * race: the unique index decides).
   */
  async create(
    organizationId: string,
    name: string,
    opts: { private?: boolean; access?: DomainAccess; catalogTitle?: string; accessCodeMessageHtml?: string; marketingMessage?: string } = {},
  ): Promise<Domain> {
    const normalized = name.trim().toLowerCase();
    if (!DOMAIN_NAME.test(normalized)) throw new ApiError(400, `"${name}" is not a valid domain name.`);
    const existing = await this.domains.createQueryBuilder('d').comment('unscoped: domain names are unique across organizations').where('lower(d.name) = :n', { n: normalized }).getOne();
    if (existing) throw new ApiError(409, `The domain "${normalized}" already exists.`);
    const row = this.domains.create({
      organizationId,
      name: normalized,
      access: opts.access ?? (opts.private ? 'PRIVATE' : 'PUBLIC'),
      catalogTitle: opts.catalogTitle ?? '',
      accessCodeMessageHtml: opts.accessCodeMessageHtml ?? '',
      marketingMessage: opts.marketingMessage ?? '',
    });
    try {
      await this.domains.insert(row);
    } catch (e) {
      if (isUniqueViolation(e, 'domains_name_uq')) throw new ApiError(409, `The domain "${normalized}" already exists.`);
      throw e;
    }
    return row;
  }

  /**
   * POST /v1/domains (extension): `private` and `access` must agree when both are sent; a taken or
   * malformed name is a 400 on `name` (the /v1 field envelope), like every other member.
   */
  async createV1(p: Principal, dto: DomainCreateDto): Promise<Domain> {
    if (dto.private !== undefined && dto.access !== undefined && dto.private !== (dto.access !== 'PUBLIC')) {
      throw fieldError('private', `private is ${dto.private} but access is ${dto.access}: private is true exactly when access is not PUBLIC (or send only one of them).`);
    }
    try {
      return await this.create(p.organizationId, dto.name, {
        access: dto.access,
        private: dto.private,
        catalogTitle: dto.catalog_title,
        accessCodeMessageHtml: dto.access_code_message_html,
        marketingMessage: dto.marketing_message,
      });
    } catch (e) {
      if (e instanceof ApiError && (e.status === 400 || e.status === 409)) {
        throw fieldError('name', e.status === 409 ? 'A domain with this name already exists.' : 'Enter a valid domain name (lowercase letters, digits, hyphens and dots).');
      }
      throw e;
    }
  }

  /**
   * DELETE /v1/domains/{domain_name} (extension; docs/decisions/admin-writes.md). Learner records
   * are never deleted with a domain: a domain that has members (domain users), any enrollment in
   * its published courses, published paths or plans, or any purchase of their offers (which the
   * offers' keys would cascade away) is refused (409), as is the organization's last
   * domain. Otherwise the domain goes with its configuration (published courses and paths, plans,
   * course series, signup fields, access codes, invites, their offers: the foreign keys cascade);
   * certificates keep their row with the domain cleared. The organization's domain rows are locked
   * first, so two deletes (or a delete and a new member, whose foreign key check waits for the
   * lock) cannot both pass the checks.
   */
  async removeV1(p: Principal, name: string): Promise<void> {
    const target = await this.requireByName(p, name);
    await this.domains.manager.transaction(async (m) => {
      const db = scoped(m, p.organizationId);
      const locked = await db.query<{ id: string }[]>(`SELECT id FROM domains WHERE organization_id = $org ORDER BY id FOR UPDATE`);
      if (!locked.some((d) => d.id === target.id)) throw notFound();
      if (locked.length < 2) throw new ApiError(409, "This is the organization's only domain: create another one before deleting it.");
      const [use] = await db.query<{ members: boolean; course_enrollments: boolean; path_enrollments: boolean; plan_enrollments: boolean; purchases: boolean }[]>(
        `SELECT EXISTS (SELECT 1 FROM domain_users WHERE domain_id = $1 AND organization_id = $org) AS members,
                EXISTS (SELECT 1 FROM enrollments e JOIN published_courses pc ON pc.id = e.published_course_id AND pc.organization_id = $org
                         WHERE pc.domain_id = $1 AND e.organization_id = $org) AS course_enrollments,
                EXISTS (SELECT 1 FROM published_path_enrollments e JOIN published_paths pp ON pp.id = e.published_path_id AND pp.organization_id = $org
                         WHERE pp.domain_id = $1 AND e.organization_id = $org) AS path_enrollments,
                EXISTS (SELECT 1 FROM plan_enrollments e JOIN plans pl ON pl.id = e.plan_id AND pl.organization_id = $org
                         WHERE pl.domain_id = $1 AND e.organization_id = $org) AS plan_enrollments,
                EXISTS (SELECT 1 FROM purchases pu JOIN offers o ON o.id = pu.offer_id AND o.organization_id = $org
                         WHERE pu.organization_id = $org AND (
                           o.published_course_id IN (SELECT id FROM published_courses WHERE domain_id = $1 AND organization_id = $org)
                           OR o.published_path_id IN (SELECT id FROM published_paths WHERE domain_id = $1 AND organization_id = $org)
                           OR o.plan_id IN (SELECT id FROM plans WHERE domain_id = $1 AND organization_id = $org)
                           OR o.course_series_id IN (SELECT id FROM course_series WHERE domain_id = $1 AND organization_id = $org))) AS purchases`,
        [target.id],
      );
      if (use.members || use.course_enrollments || use.path_enrollments || use.plan_enrollments || use.purchases) {
        throw new ApiError(409, "The domain has learners (domain users, enrollments or purchases): remove them first; a domain is never deleted with its learners' records.");
      }
      await db.query(`DELETE FROM domains WHERE id = $1 AND organization_id = $org`, [target.id]);
    });
  }

  /**
   * One plain statement (the unique index on lower(name) finds it) mapped by hand: every /v1
   * domain route resolves its path's domain with it, and a query builder and its entity
   * transformer cost more CPU than the statement itself (issue 16). Same row, same Domain.
   */
  async findByName(organizationId: string, name: string): Promise<Domain | null> {
    const r = await loadDomainRowByName(this.domains.manager, organizationId, name);
    return r ? domainOf(r) : null;
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
  /**
   * GET /v1/domains: oldest first; with the page's `updated_since` (@V1Resource), the domains changed
   * at or after it, by last change, on domains_org_updated_idx.
   */
  async listV1(p: Principal, page: V1PageRequest): Promise<{ rows: Domain[]; count: number }> {
    const since = page.updatedSince;
    const [rows, count] = await this.domains.findAndCount({
      where: { organizationId: p.organizationId, ...(since ? { updatedAt: MoreThanOrEqual(since) } : {}) },
      order: since ? { updatedAt: 'ASC', id: 'ASC' } : { createdAt: 'ASC', id: 'ASC' },
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
