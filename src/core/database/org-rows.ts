import type { FindOptionsOrder, FindOptionsWhere, Repository } from 'typeorm';
import { notFound } from '../http/api-error';
import { decodeId, IdType } from '../ids/ids';
import type { V1PageRequest } from '../pagination/v1-page';

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
