import type { FindOptionsOrder, FindOptionsWhere, Repository } from 'typeorm';
import type { Principal } from '../auth/principal';
import { notFound } from '../http/api-error';
import { decodeId, IdType } from '../ids/ids';
import type { V1PageRequest } from './v1-page';

/** A row an organization owns, listed oldest first. */
interface OrgRow {
  id: string;
  organizationId: string;
  createdAt: Date;
}

/** One /v1 page of an organization's rows, oldest first (created_at, then id), with the total count. */
export async function orgPage<T extends OrgRow>(repo: Repository<T>, organizationId: string, page: V1PageRequest): Promise<{ rows: T[]; count: number }> {
  const [rows, count] = await repo.findAndCount({
    where: { organizationId } as FindOptionsWhere<T>,
    order: { createdAt: 'ASC', id: 'ASC' } as FindOptionsOrder<T>,
    skip: page.offset,
    take: page.pageSize,
  });
  return { rows, count };
}

/** The organization's row behind a public id, or the 404 a malformed, unknown or foreign id gets alike. */
export async function orgRowOr404<T extends OrgRow>(repo: Repository<T>, type: IdType, publicId: string, organizationId: string): Promise<T> {
  const id = decodeId(type, publicId);
  const row = id ? await repo.findOneBy({ id, organizationId } as FindOptionsWhere<T>) : null;
  if (!row) throw notFound();
  return row;
}

/**
 * The base of a service over one organization-owned entity with a public id: its /v1 pages
 * (oldest first) and its row behind a public id (404 for a malformed, unknown or foreign id).
 */
export abstract class OrgRowsService<T extends OrgRow> {
  protected constructor(
    protected readonly repo: Repository<T>,
    private readonly idType: IdType,
  ) {}

  list(p: Principal, page: V1PageRequest): Promise<{ rows: T[]; count: number }> {
    return orgPage(this.repo, p.organizationId, page);
  }

  get(p: Principal, publicId: string): Promise<T> {
    return orgRowOr404(this.repo, this.idType, publicId, p.organizationId);
  }
}
