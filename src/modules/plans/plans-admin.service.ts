import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import type { Principal } from '../../core/auth/principal';
import { isUniqueViolation } from '../../core/database/sql';
import { updateSent } from '../commerce/update-sent';
import { DomainsService } from '../domains/domains.service';
import type { PlanCreateDto, PlanPatchDto } from './dto/plan-write.dto';
import { PlansService, PlanView } from './plans.service';
import { ProgramAdminService } from './program-admin-service';
import { insertProgram, Program, replaceItems, resolveItems, slugFrom, slugTaken } from './program-writes';

const PLANS: Program = { table: 'plans', kind: 'plan', offerOwner: 'plan_id', what: 'plan', items: { table: 'plan_items', owner: 'plan_id' } };

/**
 * Plans written by an administrator (CONVENTIONS §15; POST/PUT/PATCH/DELETE
 * /v1/domains/{domain_name}/plan[/{plan_id}] and the CLI's create-plan). A new plan gets its offer
 * (commerce's insertDefaultOffer) in the same transaction. Its published courses and paths are
 * plan_items rows; a list sent replaces the stored one. Delete is soft (deleted_at): the plan
 * disappears from every read, its enrollments and offer rows stay for the record.
 */
@Injectable()
export class PlansAdminService extends ProgramAdminService<PlanView> {
  constructor(ds: DataSource, domains: DomainsService, plans: PlansService) {
    super(PLANS, ds, domains, plans);
  }

  private async writeItems(m: EntityManager, p: Principal, domainId: string, planId: string, dto: PlanPatchDto) {
    for (const [kind, column, refs, field] of [
      ['publishedCourse', 'published_course_id', dto.published_courses, 'published_courses'],
      ['publishedPath', 'published_path_id', dto.published_paths, 'published_paths'],
    ] as const) {
      if (refs !== undefined) await replaceItems(m, PLANS, p.organizationId, planId, column, await resolveItems(m, p.organizationId, domainId, kind, refs, field));
    }
  }

  /** POST: answers the published Plan (with its offer and items). */
  async create(p: Principal, domainName: string, dto: PlanCreateDto): Promise<PlanView> {
    return this.written(p, domainName, async (m, domain) => {
      const slug = { slug: dto.slug ?? slugFrom(dto.name!, 'plan'), chosen: dto.slug !== undefined };
      const planId = await insertProgram(m, PLANS, p.organizationId, domain.id, slug, { name: dto.name, hidden: dto.hidden, short_description: dto.short_description ?? null }, dto.name!);
      await this.writeItems(m, p, domain.id, planId, dto);
      return planId;
    });
  }

  /** PUT (name and hidden required) and PATCH: the members sent change. */
  async update(p: Principal, domainName: string, publicId: string, dto: PlanPatchDto): Promise<PlanView> {
    return this.written(p, domainName, async (m, domain) => {
      const plan = await this.locked(m, p, domain, publicId);
      try {
        await updateSent(m, 'plans', plan.id, p.organizationId, { name: dto.name, slug: dto.slug, hidden: dto.hidden, short_description: dto.short_description });
      } catch (e) {
        // another live plan of the domain has the slug: the transaction rolls back, 400 on slug
        if (isUniqueViolation(e, 'plans_slug_uq')) throw slugTaken('plan');
        throw e;
      }
      await this.writeItems(m, p, domain.id, plan.id, dto);
      return plan.id;
    });
  }
}
