import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import type { Principal } from '../../core/auth/principal';
import { scoped } from '../../core/database/scoped';
import type { V1PageRequest } from '../../core/pagination/v1-page';
import type { Domain } from '../domains/domain.entity';
import type { ProgramEnrollmentCreateDto, ProgramEnrollmentUpdateDto } from '../enrollments/dto/program-enrollment.v1.dto';
import { loadOffers, OfferRow } from '../commerce/offers';
import { parseEnrollmentUpdate } from '../enrollments/program-enrollments';
import { LivePrograms } from './live-programs';
import { Plan, PlanEnrollment } from './plan.entity';
import { ProgramEnrollmentRows, ProgramEnrollmentView } from './program-enrollment-rows';

export interface PlanView {
  plan: Plan;
  domainName: string;
  offer: OfferRow | undefined;
  /** the plan's live published courses and paths, in the order given (plan_items) */
  items: PlanItems;
}

export interface PlanItems {
  courses: string[];
  paths: string[];
}

export type PlanEnrollmentView = ProgramEnrollmentView<PlanEnrollment>;

async function planItems(m: EntityManager, organizationId: string, planIds: string[]): Promise<Map<string, PlanItems>> {
  const out = new Map<string, PlanItems>();
  if (!planIds.length) return out;
  const rows = await scoped(m, organizationId).query<{ plan_id: string; published_course_id: string | null; published_path_id: string | null }[]>(
    `SELECT i.plan_id, i.published_course_id, i.published_path_id FROM plan_items i
       LEFT JOIN published_courses pc ON pc.id = i.published_course_id AND pc.organization_id = $org
       LEFT JOIN published_paths pp ON pp.id = i.published_path_id AND pp.organization_id = $org
      WHERE i.organization_id = $org AND i.plan_id = ANY($1::uuid[])
        AND (pc.unpublished_at IS NULL AND pp.unpublished_at IS NULL)
      ORDER BY i.plan_id, i."order", i.id`,
    [planIds],
  );
  for (const r of rows) {
    const v = out.get(r.plan_id) ?? { courses: [], paths: [] };
    if (r.published_course_id) v.courses.push(r.published_course_id);
    else if (r.published_path_id) v.paths.push(r.published_path_id);
    out.set(r.plan_id, v);
  }
  return out;
}

const ENROLLMENTS = new ProgramEnrollmentRows(PlanEnrollment, 'plan', 'planId');

/**
 * Plans of a domain (read-only on /v1) and their enrollments. Every query filters on the caller's
 * organization and the domain named in the path.
 */
@Injectable()
export class PlansService extends LivePrograms<Plan, PlanView>(Plan, 'plan') {
  /** Offers and items of a page of plans: two queries whatever the page size. */
  protected async views(m: EntityManager, organizationId: string, domain: Domain, plans: Plan[]): Promise<PlanView[]> {
    const ids = plans.map((x) => x.id);
    const [offers, items] = await Promise.all([loadOffers(m, organizationId, 'plan_id', ids), planItems(m, organizationId, ids)]);
    return plans.map((plan) => ({ plan, domainName: domain.name, offer: offers.get(plan.id), items: items.get(plan.id) ?? { courses: [], paths: [] } }));
  }

  private plan(m: EntityManager, p: Principal, domain: Domain, id: string): Promise<Plan> {
    return this.byPublicId(m, p, domain, id);
  }

  async listEnrollments(p: Principal, domainName: string, planId: string, page: V1PageRequest): Promise<{ rows: PlanEnrollmentView[]; count: number }> {
    const domain = await this.domains.requireByName(p, domainName);
    const m = this.ds.manager;
    return ENROLLMENTS.page(m, p.organizationId, (await this.plan(m, p, domain, planId)).id, page);
  }

  async readEnrollment(p: Principal, domainName: string, planId: string, id: string): Promise<PlanEnrollmentView> {
    const domain = await this.domains.requireByName(p, domainName);
    const m = this.ds.manager;
    return ENROLLMENTS.read(m, p.organizationId, (await this.plan(m, p, domain, planId)).id, id);
  }

  /** Enroll a domain member; an existing enrollment is returned unchanged (see insertEnrollment); a new one records its purchase (commerce). */
  async enroll(p: Principal, domainName: string, planId: string, dto: ProgramEnrollmentCreateDto): Promise<{ view: PlanEnrollmentView; created: boolean }> {
    const domain = await this.domains.requireByName(p, domainName);
    return this.ds.transaction(async (m) => {
      const plan = await this.plan(m, p, domain, planId);
      const { view, created } = await ENROLLMENTS.enroll(m, p.organizationId, { id: plan.id, domainId: domain.id }, dto);
      return { view, created };
    });
  }

  async updateEnrollment(p: Principal, domainName: string, planId: string, id: string, dto: ProgramEnrollmentUpdateDto): Promise<PlanEnrollmentView> {
    const domain = await this.domains.requireByName(p, domainName);
    const input = parseEnrollmentUpdate(dto);
    return this.ds.transaction(async (m) => ENROLLMENTS.update(m, p.organizationId, (await this.plan(m, p, domain, planId)).id, id, input));
  }
}
