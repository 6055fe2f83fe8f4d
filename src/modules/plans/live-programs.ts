import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, FindOptionsWhere, IsNull, MoreThanOrEqual } from 'typeorm';
import type { Principal } from '../../core/auth/principal';
import { SoftDeletedDomainOrgEntity } from '../../core/database/org-entity';
import { notFound } from '../../core/http/api-error';
import { decodeId, IdType } from '../../core/ids/ids';
import type { V1PageRequest } from '../../core/pagination/v1-page';
import type { Domain } from '../domains/domain.entity';
import { DomainsService } from '../domains/domains.service';

/**
 * The base of the /v1 reads of a domain's programs (PlansService, CourseSeriesService): the live
 * (not soft-deleted) rows of the domain named in the path, paged in creation order, or one of them
 * by public id or uuid (404 when it is not a live one of the domain), each answered as the
 * subclass's `views` makes them (a page at once). Every query filters on the caller's organization
 * and the domain.
 */
export function LivePrograms<E extends SoftDeletedDomainOrgEntity, V>(entity: new () => E, kind: IdType) {
  @Injectable()
  abstract class Programs {
    constructor(
      protected readonly ds: DataSource,
      protected readonly domains: DomainsService,
    ) {}

    /** The answers of a page of rows (offers, items, counts: a few queries whatever the page size). */
    protected abstract views(m: EntityManager, organizationId: string, domain: Domain, rows: E[]): Promise<V[]>;

    private where(organizationId: string, domainId: string, more: object = {}): FindOptionsWhere<E> {
      return { organizationId, domainId, deletedAt: IsNull(), ...more } as FindOptionsWhere<E>;
    }

    private async byUuid(m: EntityManager, organizationId: string, domainId: string, uuid: string | null): Promise<E> {
      const row = uuid ? await m.getRepository(entity).findOne({ where: this.where(organizationId, domainId, { id: uuid }) }) : null;
      if (!row) throw notFound();
      return row;
    }

    /** The live row of the domain behind a public id, or 404. */
    protected byPublicId(m: EntityManager, p: Principal, domain: Domain, publicId: string): Promise<E> {
      return this.byUuid(m, p.organizationId, domain.id, decodeId(kind, publicId));
    }

    async list(p: Principal, domainName: string, page: V1PageRequest): Promise<{ rows: V[]; count: number }> {
      const domain = await this.domains.requireByName(p, domainName);
      const m = this.ds.manager;
      // with updated_since: the rows changed since, by last change (on (domain_id, updated_at, id))
      const since = page.updatedSince;
      const [rows, count] = await m.getRepository(entity).findAndCount({
        where: this.where(p.organizationId, domain.id, since ? { updatedAt: MoreThanOrEqual(since) } : {}),
        order: (since ? { updatedAt: 'ASC', id: 'ASC' } : { createdAt: 'ASC', id: 'ASC' }) as never,
        take: page.pageSize,
        skip: page.offset,
      });
      return { rows: await this.views(m, p.organizationId, domain, rows), count };
    }

    async read(p: Principal, domainName: string, id: string): Promise<V> {
      const domain = await this.domains.requireByName(p, domainName);
      const m = this.ds.manager;
      return (await this.views(m, p.organizationId, domain, [await this.byPublicId(m, p, domain, id)]))[0];
    }

    /** A live row of the domain by uuid (the answer of the administrative writes). */
    async readByUuid(p: Principal, domain: Domain, uuid: string): Promise<V> {
      const m = this.ds.manager;
      return (await this.views(m, p.organizationId, domain, [await this.byUuid(m, p.organizationId, domain.id, uuid)]))[0];
    }
  }
  return Programs;
}
