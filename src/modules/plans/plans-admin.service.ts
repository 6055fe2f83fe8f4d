import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import type { Principal } from '../../core/auth/principal';
import { isUniqueViolation } from '../../core/database/sql';
import { updateSent } from '../commerce/update-sent';
import { DomainsService } from '../domains/domains.service';
import type { PlanCreateDto, PlanPatchDto } from './dto/plan-write.dto';
import { PlansService, PlanView } from './plans.service';
import { insertProgram, lockLive, Program, replaceItems, resolveItems, slugFrom, slugTaken, softDelete } from './program-writes';

const PLANS: Program = { table: 'plans', kind: 'plan', offerOwner: 'plan_id', what: 'plan', items: { table: 'plan_items', owner: 'plan_id' } };

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
    const domain = await this.domains.requireByName(p, domainName);
    const id = await this.ds.transaction(async (m) => {
      const slug = { slug: dto.slug ?? slugFrom(dto.name!, 'plan'), chosen: dto.slug !== undefined };
      const planId = await insertProgram(m, PLANS, p.organizationId, domain.id, slug, { name: dto.name, hidden: dto.hidden, short_description: dto.short_description ?? null }, dto.name!);
      await this.writeItems(m, p, domain.id, planId, dto);
      return planId;
    });
    return this.plans.readByUuid(p, domain, id);
  }

  /** PUT (name and hidden required) and PATCH: the members sent change. */
  async update(p: Principal, domainName: string, publicId: string, dto: PlanPatchDto): Promise<PlanView> {
    const domain = await this.domains.requireByName(p, domainName);
    const id = await this.ds.transaction(async (m) => {
      const plan = await lockLive(m, PLANS, p.organizationId, domain.id, publicId);
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
    return this.plans.readByUuid(p, domain, id);
  }

  /** DELETE: soft; 404 once deleted. */
  async remove(p: Principal, domainName: string, publicId: string): Promise<void> {
    const domain = await this.domains.requireByName(p, domainName);
    await this.ds.transaction(async (m) => softDelete(m, PLANS, p.organizationId, (await lockLive(m, PLANS, p.organizationId, domain.id, publicId)).id));
  }
}
