import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { isUniqueViolation, rowsOf } from '../../core/database/sql';
import { ApiError } from '../../core/http/api-error';
import { newUuid } from '../../core/ids/ids';
import { scoped } from '../../core/database/scoped';

export class GroupNameTaken extends ApiError {
  constructor() {
    super(409, 'A group with this displayName already exists.');
  }
}

/**
 * The writes SCIM provisioning makes on groups and their memberships (this module's tables):
 * create, rename, delete a group, and add, remove or replace members, set-wise (one statement per
 * change, whatever the number of members). Member ids that are not students of the organization are
 * ignored by the joins (the composite keys refuse another organization's anyway).
 */
@Injectable()
export class GroupsProvisioning {
  async create(m: EntityManager, organizationId: string, name: string): Promise<string> {
    const id = newUuid();
    try {
      await scoped(m, organizationId).query(`INSERT INTO groups (id, organization_id, name) VALUES ($1, $org, $2)`, [id, name]);
    } catch (err) {
      if (isUniqueViolation(err)) throw new GroupNameTaken();
      throw err;
    }
    return id;
  }

  async rename(m: EntityManager, organizationId: string, id: string, name: string): Promise<boolean> {
    try {
      const rows = rowsOf<{ id: string }>(
        await scoped(m, organizationId).query<unknown>(`UPDATE groups SET name = $2, updated_at = date_trunc('milliseconds', now()) WHERE id = $1 AND organization_id = $org RETURNING id`, [id, name]),
      );
      return rows.length > 0;
    } catch (err) {
      if (isUniqueViolation(err)) throw new GroupNameTaken();
      throw err;
    }
  }

  async exists(m: EntityManager, organizationId: string, id: string, lock = false): Promise<boolean> {
    const rows = await scoped(m, organizationId).query<{ id: string }[]>(`SELECT id FROM groups WHERE id = $1 AND organization_id = $org${lock ? ' FOR UPDATE' : ''}`, [id]);
    return rows.length > 0;
  }

  async remove(m: EntityManager, organizationId: string, id: string): Promise<boolean> {
    const rows = rowsOf<{ id: string }>(await scoped(m, organizationId).query<unknown>(`DELETE FROM groups WHERE id = $1 AND organization_id = $org RETURNING id`, [id]));
    return rows.length > 0;
  }

  async addMembers(m: EntityManager, organizationId: string, groupId: string, userIds: string[]): Promise<void> {
    if (!userIds.length) return;
    await scoped(m, organizationId).query(
      `INSERT INTO group_memberships (group_id, user_id, organization_id)
       SELECT $1, u.id, u.organization_id FROM users u WHERE u.organization_id = $org AND u.id = ANY($2::uuid[])
       ON CONFLICT DO NOTHING`,
      [groupId, userIds],
    );
  }

  async removeMembers(m: EntityManager, organizationId: string, groupId: string, userIds: string[] | 'all'): Promise<void> {
    if (userIds === 'all') {
      await scoped(m, organizationId).query(`DELETE FROM group_memberships WHERE organization_id = $org AND group_id = $1`, [groupId]);
      return;
    }
    if (!userIds.length) return;
    await scoped(m, organizationId).query(`DELETE FROM group_memberships WHERE organization_id = $org AND group_id = $1 AND user_id = ANY($2::uuid[])`, [groupId, userIds]);
  }
}
