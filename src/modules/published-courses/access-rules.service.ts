import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { scoped } from '../../core/database/scoped';

export interface DomainRef {
  id: string;
  access: 'PUBLIC' | 'PRIVATE' | 'PRIVATE_CODE';
}

/**
 * The learner access rules of the catalog (resource-reference-api.md sections 2 and 3), in one
 * place. Each is a single SQL statement against the shared tables:
 *
 * - domain membership: a PUBLIC domain's catalog is visible to anyone (signed in or not); a
 *   PRIVATE or PRIVATE_CODE domain's only to its active domain users whose `expires_at` has not
 *   passed (domain_users.expires_at is ignored, and never stored, on public domains);
 * - course access: a user has access to a published course while at least one of their enrollments
 *   in it is active and unexpired, the course is still published (not unpublished, course not
 *   deleted), the user can reach the domain (above), and — when the published course sets
 *   `strict_enforce_group_visibility` — the course is visible to them (below);
 * - catalog visibility: a published course that is not hidden is listed unless one of the user's
 *   groups has a blocking override (is_visible = false); a hidden one only when one of the user's
 *   groups has an override with is_visible = true for it (visibility_overrides × group_memberships).
 */
@Injectable()
export class AccessRulesService {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /** SQL predicate: the user ($user) may reach domain d (alias) — see the class comment. */
  static domainMemberSql(domainAlias: string, userParam: string): string {
    return `(${domainAlias}.access = 'PUBLIC' OR EXISTS (
      SELECT 1 FROM domain_users du WHERE du.domain_id = ${domainAlias}.id AND du.user_id = ${userParam}
        AND du.active AND (du.expires_at IS NULL OR du.expires_at > now())))`;
  }

  /** SQL predicate: published course pc (alias) is visible on the catalog to user $user (may be NULL). */
  static visibleSql(pcAlias: string, userParam: string): string {
    const groupOverride = (visible: boolean) => `EXISTS (
      SELECT 1 FROM visibility_overrides vo JOIN group_memberships gm ON gm.group_id = vo.group_id
      WHERE vo.published_course_id = ${pcAlias}.id AND vo.is_visible = ${visible} AND gm.user_id = ${userParam})`;
    return `(CASE WHEN ${pcAlias}.is_hidden THEN ${groupOverride(true)} ELSE NOT ${groupOverride(false)} END)`;
  }

  /** Whether the domain's catalog is visible to the user (null = an anonymous visitor). */
  async catalogVisible(organizationId: string, userId: string | null, domain: DomainRef, m: EntityManager = this.ds.manager): Promise<boolean> {
    if (domain.access === 'PUBLIC') return true;
    if (!userId) return false;
    const rows = await scoped(m, organizationId).query<unknown[]>(`SELECT 1 FROM domains d WHERE d.id = $1 AND d.organization_id = $org AND ${AccessRulesService.domainMemberSql('d', '$2::uuid')}`, [
      domain.id,
      userId,
    ]);
    return rows.length > 0;
  }

  /** The published courses of `domain` the user sees on its catalog (ids, in catalog order). */
  async catalogCourseIds(organizationId: string, userId: string | null, domain: DomainRef, m: EntityManager = this.ds.manager): Promise<string[]> {
    if (!(await this.catalogVisible(organizationId, userId, domain, m))) return [];
    const rows = await scoped(m, organizationId).query<{ id: string }[]>(
      `SELECT pc.id FROM published_courses pc JOIN courses c ON c.id = pc.course_id AND c.deleted_at IS NULL
       WHERE pc.organization_id = $org AND pc.domain_id = $1 AND pc.unpublished_at IS NULL AND pc.visible_on_catalog
         AND ${AccessRulesService.visibleSql('pc', '$2::uuid')}
       ORDER BY pc.created_at, pc.id`,
      [domain.id, userId],
    );
    return rows.map((r) => r.id);
  }

  /** Whether the user has access to the published course now (see the class comment). */
  async hasAccess(organizationId: string, userId: string, publishedCourseId: string, m: EntityManager = this.ds.manager): Promise<boolean> {
    const rows = await scoped(m, organizationId).query<unknown[]>(
      `SELECT 1 FROM published_courses pc
         JOIN courses c ON c.id = pc.course_id AND c.deleted_at IS NULL
         JOIN domains d ON d.id = pc.domain_id
       WHERE pc.id = $1 AND pc.organization_id = $org AND pc.unpublished_at IS NULL
         AND EXISTS (SELECT 1 FROM enrollments e WHERE e.published_course_id = pc.id AND e.user_id = $2::uuid
                       AND e.active AND (e.expires_at IS NULL OR e.expires_at > now()))
         AND ${AccessRulesService.domainMemberSql('d', '$2::uuid')}
         AND (NOT pc.strict_enforce_group_visibility OR ${AccessRulesService.visibleSql('pc', '$2::uuid')})`,
      [publishedCourseId, userId],
    );
    return rows.length > 0;
  }
}
