import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { Principal } from '../../core/auth/principal';
import { rowsOf } from '../../core/database/sql';
import { notFound } from '../../core/http/api-error';
import { decodeId } from '../../core/ids/ids';

export interface GroupCategoryRow {
  id: string;
  name: string;
}

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
    const [row] = await this.ds.query(`INSERT INTO group_categories (organization_id, name) VALUES ($1, $2) RETURNING id, name`, [org, dto.name]);
    return row;
  }

  async update(p: Principal, publicId: string, dto: { name: string }): Promise<GroupCategoryRow> {
    const id = decodeId('groupCategory', publicId);
    if (!id) throw notFound();
    const [row] = rowsOf<GroupCategoryRow>(
      await this.ds.query(`UPDATE group_categories SET name = $3, updated_at = date_trunc('milliseconds', now()) WHERE id = $1 AND organization_id = $2 RETURNING id, name`, [
        id,
        p.organizationId,
        dto.name,
      ]),
    );
    if (!row) throw notFound();
    return row;
  }

  async remove(p: Principal, publicId: string): Promise<void> {
    const id = decodeId('groupCategory', publicId);
    if (!id) throw notFound();
    const rows = rowsOf(await this.ds.query(`DELETE FROM group_categories WHERE id = $1 AND organization_id = $2 RETURNING id`, [id, p.organizationId]));
    if (!rows.length) throw notFound();
  }
}
