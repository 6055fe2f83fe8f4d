import { FindOptionsOrder, FindOptionsWhere, MoreThanOrEqual, Repository } from 'typeorm';
import type { V1PageRequest } from '../../core/pagination/v1-page';

/** An uploaded content file's row (assets, web packages): the organization's, with its creation and last change. */
interface FileRow {
  id: string;
  organizationId: string;
  createdAt: Date;
  updatedAt: Date;
}

/**
 * The lists of uploaded content files with `updated_since` (docs/decisions/data-out.md): a change
 * is a write of the row (its name or options, the worker settling an import); the row's
 * `updated_at` is kept at the millisecond by a trigger (a /v2 cursor holds milliseconds), and each
 * table has its `(organization_id, updated_at, id)` index (migration 1763930000000). The /v2 lists:
 * core/pagination/v2-updated-since.ts.
 */

/** A /v1 page: oldest first, or with the page's `updated_since` the rows changed at or after it, by last change. */
export async function filePage<T extends FileRow>(repo: Repository<T>, organizationId: string, page: V1PageRequest): Promise<{ rows: T[]; count: number }> {
  const since = page.updatedSince;
  const [rows, count] = await repo.findAndCount({
    where: { organizationId, ...(since ? { updatedAt: MoreThanOrEqual(since) } : {}) } as FindOptionsWhere<T>,
    order: (since ? { updatedAt: 'ASC', id: 'ASC' } : { createdAt: 'ASC', id: 'ASC' }) as FindOptionsOrder<T>,
    skip: page.offset,
    take: page.pageSize,
  });
  return { rows, count };
}
