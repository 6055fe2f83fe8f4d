import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { Principal } from '../../core/auth/principal';
import { scoped } from '../../core/database/scoped';
import type { ManagerAccessRow } from './manager-access.store';
import { rowsOf } from '../../core/database/sql';
import { notFound } from '../../core/http/api-error';
import { decodeId, encodeId, IdType } from '../../core/ids/ids';
import type { Domain } from '../domains/domain.entity';
import { groupNamed } from '../groups/managed-group';
import { DomainUsersService } from './domain-users.service';
import type { ManagerAccessRequest } from './dto/manager-access.dto';
import type { ManagerAccessV1 } from './domain-users.shape';

/** The three kinds of objects a manager may manage: their link table, column, parent table and id type. */
const KINDS = [
  { key: 'course_ids', table: 'manager_access_courses', column: 'course_id', parent: 'courses', type: 'course', live: 'AND deleted_at IS NULL' },
  { key: 'path_ids', table: 'manager_access_paths', column: 'path_id', parent: 'paths', type: 'path', live: '' },
  { key: 'license_ids', table: 'manager_access_licenses', column: 'license_package_id', parent: 'license_packages', type: 'licensePackage', live: '' },
] as const satisfies readonly { key: string; table: string; column: string; parent: string; type: IdType; live: string }[];

type Key = (typeof KINDS)[number]['key'];

export interface ManagerAccessView {
  user: { id: string; email: string; first_name: string; last_name: string };
  access: { groupId: string; canCreateUsers: boolean; courseLevel: string; pathLevel: string; ids: Record<Key, string[]> } | null;
  invalid: Record<Key, string[]>;
}

/**
 * A domain user's manager access (PUT / DELETE /v1/domains/{domain_name}/users/{user_id}/manager-access,
 * CONVENTIONS §17): the managed group (the organization's group named `group_name`, made when there is
 * none), `can_create_users`, the course and path access levels, and the courses, paths and license
 * packages the manager may manage (tables manager_access*, composite keys with organization_id).
 * PUT replaces the whole setting; ids that are malformed or not the organization's are ignored and
 * answered in `invalid_ids`. The user must be a member of the domain (404 otherwise).
 */
@Injectable()
export class ManagerAccessService {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly users: DomainUsersService,
  ) {}

  async put(p: Principal, domain: Domain, userPublicId: string, dto: ManagerAccessRequest): Promise<ManagerAccessView> {
    const member = await this.users.get(p, domain, userPublicId);
    return this.ds.transaction(async (m) => {
      const db = scoped(m, p.organizationId);
      const group = await groupNamed(m, p.organizationId, dto.group_name);
      const [row] = rowsOf<{ id: string }>(
        await db.query<unknown>(
          `INSERT INTO manager_access (organization_id, domain_id, user_id, group_id, can_create_users, course_access_level, path_access_level)
           VALUES ($org, $1, $2, $3, $4, $5, $6)
           ON CONFLICT (domain_id, user_id) DO UPDATE SET group_id = EXCLUDED.group_id, can_create_users = EXCLUDED.can_create_users,
             course_access_level = EXCLUDED.course_access_level, path_access_level = EXCLUDED.path_access_level,
             updated_at = date_trunc('milliseconds', now())
           RETURNING id`,
          [domain.id, member.user_id, group.id, dto.can_create_users ?? false, dto.course_access_level, dto.path_access_level],
        ),
      );
      const invalid = {} as Record<Key, string[]>;
      for (const k of KINDS) {
        const sent = [...new Set(dto[k.key] ?? [])];
        const decoded = sent.map((id) => ({ id, uuid: decodeId(k.type, id) }));
        const uuids = decoded.flatMap((d) => (d.uuid ? [d.uuid] : []));
        const known = new Set<string>(
          uuids.length
            ? (await db.query<{ id: string }[]>(`SELECT id FROM ${k.parent} WHERE organization_id = $org AND id = ANY($1::uuid[]) ${k.live}`, [uuids])).map((r: { id: string }) => r.id)
            : [],
        );
        invalid[k.key] = decoded.filter((d) => !d.uuid || !known.has(d.uuid)).map((d) => d.id);
        const kept = decoded.filter((d) => d.uuid && known.has(d.uuid)).map((d) => d.uuid!);
        await db.query(`DELETE FROM ${k.table} WHERE organization_id = $org AND manager_access_id = $1`, [row.id]);
        if (kept.length) {
          await db.query(`INSERT INTO ${k.table} (organization_id, manager_access_id, ${k.column}, position) SELECT $org, $1, v.id, v.n FROM unnest($2::uuid[]) WITH ORDINALITY AS v(id, n)`, [
            row.id,
            kept,
          ]);
        }
      }
      return { ...(await this.read(m, p, domain.id, member.user_id, member)), invalid };
    });
  }

  /** Revoke: the setting and its links go; the managed group stays. 404 when the user has none on this domain. */
  async remove(p: Principal, domain: Domain, userPublicId: string): Promise<void> {
    const member = await this.users.get(p, domain, userPublicId);
    const rows = rowsOf<{ id: string }>(
      await scoped(this.ds, p.organizationId).query<unknown>(`DELETE FROM manager_access WHERE organization_id = $org AND domain_id = $1 AND user_id = $2 RETURNING id`, [domain.id, member.user_id]),
    );
    if (!rows.length) throw notFound('This user has no manager access on this domain.');
  }

  private async read(
    m: EntityManager,
    p: Principal,
    domainId: string,
    userId: string,
    member: { user_id: string; email: string; first_name: string; last_name: string },
  ): Promise<Omit<ManagerAccessView, 'invalid'>> {
    const db = scoped(m, p.organizationId);
    const [a] = await db.query<
      (Pick<ManagerAccessRow, 'id' | 'group_id' | 'can_create_users' | 'course_access_level' | 'path_access_level'> & { course_ids: string[]; path_ids: string[]; license_ids: string[] })[]
    >(
      `SELECT ma.id, ma.group_id, ma.can_create_users, ma.course_access_level, ma.path_access_level,
              ARRAY(SELECT course_id FROM manager_access_courses x WHERE x.organization_id = $org AND x.manager_access_id = ma.id ORDER BY position) AS course_ids,
              ARRAY(SELECT path_id FROM manager_access_paths x WHERE x.organization_id = $org AND x.manager_access_id = ma.id ORDER BY position) AS path_ids,
              ARRAY(SELECT license_package_id FROM manager_access_licenses x WHERE x.organization_id = $org AND x.manager_access_id = ma.id ORDER BY position) AS license_ids
         FROM manager_access ma WHERE ma.organization_id = $org AND ma.domain_id = $1 AND ma.user_id = $2`,
      [domainId, userId],
    );
    const user = { id: encodeId('student', member.user_id), email: member.email, first_name: member.first_name, last_name: member.last_name };
    if (!a) return { user, access: null };
    return {
      user,
      access: {
        groupId: encodeId('group', a.group_id),
        canCreateUsers: a.can_create_users,
        courseLevel: a.course_access_level,
        pathLevel: a.path_access_level,
        ids: {
          course_ids: (a.course_ids as string[]).map((id) => encodeId('course', id)),
          path_ids: (a.path_ids as string[]).map((id) => encodeId('path', id)),
          license_ids: (a.license_ids as string[]).map((id) => encodeId('licensePackage', id)),
        },
      },
    };
  }
}

/** ManagerAccess of the published /v1 document (ManagerAccessSchema). */
export function presentManagerAccess(v: ManagerAccessView): ManagerAccessV1 {
  return {
    user: v.user,
    manager_access: v.access
      ? {
          group_id: v.access.groupId,
          can_create_users: v.access.canCreateUsers,
          course_access_level: v.access.courseLevel,
          course_ids: v.access.ids.course_ids,
          path_access_level: v.access.pathLevel,
          path_ids: v.access.ids.path_ids,
          license_ids: v.access.ids.license_ids,
        }
      : undefined,
    invalid_ids: v.invalid,
  };
}
