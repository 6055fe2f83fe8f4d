import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import type { Principal } from '../../core/auth/principal';
import { notFound } from '../../core/http/api-error';
import { decodeId } from '../../core/ids/ids';
import { insertDefaultOffer } from '../commerce/offers';
import { DomainsService } from '../domains/domains.service';
import type { PlanCreateDto, PlanPatchDto } from './dto/plan-write.dto';
import { Plan } from './plan.entity';
import { PlansService, PlanView } from './plans.service';
import { insertWithSlug, resolveItems, slugFrom, slugTaken } from './program-writes';
import { isUniqueViolation } from '../../core/database/sql';

/**
 * Plans written by an administrator (CONVENTIONS §15; POST/PUT/PATCH/DELETE
 * /v1/domains/{domain_name}/plan[/{plan_id}] and the CLI's create-plan). A new plan gets its offer
 * (commerce's insertDefaultOffer) in the same transaction. Its published courses and paths are
 * plan_items rows; a list sent replaces the stored one. Delete is soft (deleted_at): the plan
 * disappears from every read, its enrollments and offer rows stay for the record.
 */
@Injectable()
export class PlansAdminService {
  constructor(
    private readonly ds: DataSource,
    private readonly domains: DomainsService,
    private readonly plans: PlansService,
  ) {}

  private async live(m: EntityManager, p: Principal, domainId: string, publicId: string): Promise<Plan> {
    const uuid = decodeId('plan', publicId);
    const [row] = uuid
      ? await m.query(`SELECT id FROM plans WHERE id = $1 AND domain_id = $2 AND organization_id = $3 AND deleted_at IS NULL FOR UPDATE`, [uuid, domainId, p.organizationId])
      : [];
    if (!row) throw notFound();
    return row;
  }

  private async writeItems(m: EntityManager, p: Principal, domainId: string, planId: string, dto: PlanPatchDto) {
    for (const [kind, column, refs, field] of [
      ['publishedCourse', 'published_course_id', dto.published_courses, 'published_courses'],
      ['publishedPath', 'published_path_id', dto.published_paths, 'published_paths'],
    ] as const) {
      if (refs === undefined) continue;
      const ids = await resolveItems(m, p.organizationId, domainId, kind, refs, field);
      await m.query(`DELETE FROM plan_items WHERE plan_id = $1 AND organization_id = $2 AND ${column} IS NOT NULL`, [planId, p.organizationId]);
      if (ids.length) {
        await m.query(
          `INSERT INTO plan_items (organization_id, plan_id, ${column}, "order")
           SELECT $1, $2, x.id, x.ord - 1 FROM unnest($3::uuid[]) WITH ORDINALITY AS x(id, ord)`,
          [p.organizationId, planId, ids],
        );
      }
    }
  }

  /** POST: answers the published Plan (with its offer and items). */
  async create(p: Principal, domainName: string, dto: PlanCreateDto): Promise<PlanView> {
    const domain = await this.domains.requireByName(p, domainName);
    const id = await this.ds.transaction(async (m) => {
      const row = await insertWithSlug(dto.slug ?? slugFrom(dto.name!, 'plan'), dto.slug !== undefined, 'plan', async (slug) => {
        const [r] = await m.query(
          `INSERT INTO plans (organization_id, domain_id, name, slug, hidden, short_description) VALUES ($1, $2, $3, $4, $5, $6)
           ON CONFLICT (organization_id, domain_id, slug) WHERE deleted_at IS NULL DO NOTHING RETURNING id`,
          [p.organizationId, domain.id, dto.name, slug, dto.hidden, dto.short_description ?? null],
        );
        return r as { id: string } | undefined;
      });
      await insertDefaultOffer(m, p.organizationId, 'plan_id', row.id, dto.name!);
      await this.writeItems(m, p, domain.id, row.id, dto);
      return row.id;
    });
    return this.plans.readByUuid(p, domain, id);
  }

  /** PUT (name and hidden required) and PATCH: the members sent change. */
  async update(p: Principal, domainName: string, publicId: string, dto: PlanPatchDto): Promise<PlanView> {
    const domain = await this.domains.requireByName(p, domainName);
    const id = await this.ds.transaction(async (m) => {
      const plan = await this.live(m, p, domain.id, publicId);
      const sets: string[] = [];
      const params: unknown[] = [plan.id, p.organizationId];
      const set = (col: string, v: unknown) => {
        params.push(v);
        sets.push(`${col} = $${params.length}`);
      };
      if (dto.name !== undefined) set('name', dto.name);
      if (dto.slug !== undefined) set('slug', dto.slug);
      if (dto.hidden !== undefined) set('hidden', dto.hidden);
      if (dto.short_description !== undefined) set('short_description', dto.short_description);
      if (sets.length) {
        try {
          await m.query(`UPDATE plans SET ${sets.join(', ')}, updated_at = date_trunc('milliseconds', now()) WHERE id = $1 AND organization_id = $2`, params);
        } catch (e) {
          // another live plan of the domain has the slug: the transaction rolls back, 400 on slug
          if (isUniqueViolation(e, 'plans_slug_uq')) throw slugTaken('plan');
          throw e;
        }
      }
      await this.writeItems(m, p, domain.id, plan.id, dto);
      return plan.id;
    });
    return this.plans.readByUuid(p, domain, id);
  }

  /** DELETE: soft; 404 once deleted. */
  async remove(p: Principal, domainName: string, publicId: string): Promise<void> {
    const domain = await this.domains.requireByName(p, domainName);
    await this.ds.transaction(async (m) => {
      const plan = await this.live(m, p, domain.id, publicId);
      await m.query(`UPDATE plans SET deleted_at = now(), updated_at = date_trunc('milliseconds', now()) WHERE id = $1 AND organization_id = $2`, [plan.id, p.organizationId]);
    });
  }
}
