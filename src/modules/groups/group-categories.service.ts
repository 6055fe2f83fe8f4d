import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { Principal } from '../../core/auth/principal';
import { rowsOf } from '../../core/database/sql';
import { notFound } from '../../core/http/api-error';
import { decodeId } from '../../core/ids/ids';
import { scoped } from '../../core/database/scoped';
import type { GroupCategoryRow as GroupCategoryTableRow } from './group-categories.store';

export type GroupCategoryRow = Pick<GroupCategoryTableRow, 'id' | 'name'>;

/**
 * Group categories written by an administrator (CONVENTIONS §15; /v1/group-categories and the
 * CLI's create-group-category). Names need not be unique (the published schema says nothing of it).
 * Deleting a category leaves its groups without one (groups.category_id is cleared by its key).
 */
@Injectable()
export class GroupCategoriesService {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  async create(p: Principal | string, dto: { name: string }): Promise<GroupCategoryRow> {
    const org = typeof p === 'string' ? p : p.organizationId;
    const [row] = await scoped(this.ds, org).query<GroupCategoryRow[]>(`INSERT INTO group_categories (organization_id, name) VALUES ($org, $1) RETURNING id, name`, [dto.name]);
    return row;
  }

  async update(p: Principal, publicId: string, dto: { name: string }): Promise<GroupCategoryRow> {
    const id = decodeId('groupCategory', publicId);
    if (!id) throw notFound();
    const [row] = rowsOf<GroupCategoryRow>(
      await scoped(this.ds, p.organizationId).query<unknown>(
        `UPDATE group_categories SET name = $2, updated_at = date_trunc('milliseconds', now()) WHERE id = $1 AND organization_id = $org RETURNING id, name`,
        [id, dto.name],
      ),
    );
    if (!row) throw notFound();
    return row;
  }

  async remove(p: Principal, publicId: string): Promise<void> {
    const id = decodeId('groupCategory', publicId);
    if (!id) throw notFound();
    const rows = rowsOf<{ id: string }>(await scoped(this.ds, p.organizationId).query<unknown>(`DELETE FROM group_categories WHERE id = $1 AND organization_id = $org RETURNING id`, [id]));
    if (!rows.length) throw notFound();
  }
}
