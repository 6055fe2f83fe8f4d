import { MoreThanOrEqual, Repository } from 'typeorm';
import { orgPage } from '../../core/pagination/org-rows';
import type { V1PageRequest } from '../../core/pagination/v1-page';
import type { Label, Tag } from './entities';

/**
 * A /v1 page of the organization's labels or tags: oldest first, or with `updatedSince` (/v1
 * `updated_since`) the rows changed at or after it, by last change, on `<table>_org_updated_idx`
 * (organization_id, updated_at, id) (docs/decisions/data-out.md).
 */
export async function namedPage<T extends Label | Tag>(repo: Repository<T>, organizationId: string, page: V1PageRequest, updatedSince?: Date): Promise<{ rows: T[]; count: number }> {
  if (!updatedSince) return orgPage(repo, organizationId, page);
  const [rows, count] = await (repo as Repository<Label | Tag>).findAndCount({
    where: { organizationId, updatedAt: MoreThanOrEqual(updatedSince) },
    order: { updatedAt: 'ASC', id: 'ASC' },
    skip: page.offset,
    take: page.pageSize,
  });
  return { rows: rows as T[], count };
}
