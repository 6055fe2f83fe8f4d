import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, IsNull } from 'typeorm';
import type { Principal } from '../../core/auth/principal';
import { notFound } from '../../core/http/api-error';
import { decodeId } from '../../core/ids/ids';
import type { V1PageRequest } from '../../core/pagination/v1-page';
import type { Domain } from '../domains/domain.entity';
import { DomainsService } from '../domains/domains.service';
import type { ProgramEnrollmentCreateDto, ProgramEnrollmentUpdateDto } from '../enrollments/dto/program-enrollment.v1.dto';
import { loadOffers, OfferRow } from '../commerce/offers';
import { recordEnrollmentPurchases } from '../commerce/free-purchases';
import { insertEnrollment, linkEnrollmentPurchases, parseEnrollmentCreate, parseEnrollmentUpdate } from '../enrollments/program-enrollments';
import { loadUsers, UserRow } from '../students/user-refs';
import { Plan, PlanEnrollment } from './plan.entity';

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

export interface PlanEnrollmentView {
  e: PlanEnrollment;
  users: Map<string, UserRow>;
  offer: OfferRow | undefined;
}

/**
 * Plans of a domain (read-only on /v1) and their enrollments. Every query filters on the caller's
 * organization and the domain named in the path.
 */
@Injectable()
export class PlansService {
  constructor(
    private readonly ds: DataSource,
    private readonly domains: DomainsService,
  ) {}

  private async domain(p: Principal, name: string): Promise<Domain> {
    return this.domains.requireByName(p, name);
  }

  private async plan(m: EntityManager, p: Principal, domain: Domain, id: string): Promise<Plan> {
    const uuid = decodeId('plan', id);
    const plan = uuid ? await m.getRepository(Plan).findOne({ where: { id: uuid, organizationId: p.organizationId, domainId: domain.id, deletedAt: IsNull() } }) : null;
    if (!plan) throw notFound();
    return plan;
  }

  async list(p: Principal, domainName: string, page: V1PageRequest): Promise<{ rows: PlanView[]; count: number }> {
    const domain = await this.domain(p, domainName);
    const m = this.ds.manager;
    const [plans, count] = await m.getRepository(Plan).findAndCount({
      where: { organizationId: p.organizationId, domainId: domain.id, deletedAt: IsNull() },
      order: { createdAt: 'ASC', id: 'ASC' },
      take: page.pageSize,
      skip: page.offset,
    });
    return { rows: await this.planViews(m, p, domain, plans), count };
  }

  async read(p: Principal, domainName: string, id: string): Promise<PlanView> {
    const domain = await this.domain(p, domainName);
    const m = this.ds.manager;
    return (await this.planViews(m, p, domain, [await this.plan(m, p, domain, id)]))[0];
  }

  /** A live plan of the domain by uuid (the answer of the administrative writes). */
  async readByUuid(p: Principal, domain: Domain, uuid: string): Promise<PlanView> {
    const m = this.ds.manager;
    const plan = await m.getRepository(Plan).findOne({ where: { id: uuid, organizationId: p.organizationId, domainId: domain.id, deletedAt: IsNull() } });
    if (!plan) throw notFound();
    return (await this.planViews(m, p, domain, [plan]))[0];
  }

  /** Offers and items of a page of plans: two queries whatever the page size. */
  private async planViews(m: EntityManager, p: Principal, domain: Domain, plans: Plan[]): Promise<PlanView[]> {
    const ids = plans.map((x) => x.id);
    const [offers, items] = await Promise.all([loadOffers(m, p.organizationId, 'plan_id', ids), this.items(m, p.organizationId, ids)]);
    return plans.map((plan) => ({ plan, domainName: domain.name, offer: offers.get(plan.id), items: items.get(plan.id) ?? { courses: [], paths: [] } }));
  }

  private async items(m: EntityManager, organizationId: string, planIds: string[]): Promise<Map<string, PlanItems>> {
    const out = new Map<string, PlanItems>();
    if (!planIds.length) return out;
    const rows: { plan_id: string; published_course_id: string | null; published_path_id: string | null }[] = await m.query(
      `SELECT i.plan_id, i.published_course_id, i.published_path_id FROM plan_items i
         LEFT JOIN published_courses pc ON pc.id = i.published_course_id AND pc.organization_id = $2
         LEFT JOIN published_paths pp ON pp.id = i.published_path_id AND pp.organization_id = $2
        WHERE i.organization_id = $2 AND i.plan_id = ANY($1::uuid[])
          AND (pc.unpublished_at IS NULL AND pp.unpublished_at IS NULL)
        ORDER BY i.plan_id, i."order", i.id`,
      [planIds, organizationId],
    );
    for (const r of rows) {
      const v = out.get(r.plan_id) ?? { courses: [], paths: [] };
      if (r.published_course_id) v.courses.push(r.published_course_id);
      else if (r.published_path_id) v.paths.push(r.published_path_id);
      out.set(r.plan_id, v);
    }
    return out;
  }

  private async enrollment(m: EntityManager, p: Principal, plan: Plan, id: string): Promise<PlanEnrollment> {
    const uuid = decodeId('planEnrollment', id);
    const e = uuid ? await m.getRepository(PlanEnrollment).findOne({ where: { id: uuid, organizationId: p.organizationId, planId: plan.id } }) : null;
    if (!e) throw notFound();
    return e;
  }

  private async views(m: EntityManager, p: Principal, plan: Plan, rows: PlanEnrollment[]): Promise<PlanEnrollmentView[]> {
    const [users, offers] = await Promise.all([loadUsers(m, p.organizationId, rows.map((r) => r.userId)), loadOffers(m, p.organizationId, 'plan_id', [plan.id])]);
    return rows.map((e) => ({ e, users, offer: offers.get(plan.id) }));
  }

  async listEnrollments(p: Principal, domainName: string, planId: string, page: V1PageRequest): Promise<{ rows: PlanEnrollmentView[]; count: number }> {
    const domain = await this.domain(p, domainName);
    const m = this.ds.manager;
    const plan = await this.plan(m, p, domain, planId);
    const [rows, count] = await m.getRepository(PlanEnrollment).findAndCount({
      where: { organizationId: p.organizationId, planId: plan.id },
      order: { createdAt: 'ASC', id: 'ASC' },
      take: page.pageSize,
      skip: page.offset,
    });
    return { rows: await this.views(m, p, plan, rows), count };
  }

  async readEnrollment(p: Principal, domainName: string, planId: string, id: string): Promise<PlanEnrollmentView> {
    const domain = await this.domain(p, domainName);
    const m = this.ds.manager;
    const plan = await this.plan(m, p, domain, planId);
    return (await this.views(m, p, plan, [await this.enrollment(m, p, plan, id)]))[0];
  }

  /** Enroll a domain member; an existing enrollment is returned unchanged (see insertEnrollment); a new one records its purchase (commerce). */
  async enroll(p: Principal, domainName: string, planId: string, dto: ProgramEnrollmentCreateDto): Promise<{ view: PlanEnrollmentView; created: boolean }> {
    const domain = await this.domain(p, domainName);
    return this.ds.transaction(async (m) => {
      const plan = await this.plan(m, p, domain, planId);
      const input = await parseEnrollmentCreate(m, p.organizationId, dto as any);
      const { id, created } = await insertEnrollment(m, {
        organizationId: p.organizationId,
        domainId: domain.id,
        table: 'plan_enrollments',
        owner: { column: 'plan_id', id: plan.id },
        input,
      });
      if (created) {
        // the registration's purchase (commerce: $0 NONE, or what the body declared), kept on the enrollment
        const bought = await recordEnrollmentPurchases(m, p.organizationId, 'plan', [{ enrollmentId: id, userId: input.userUuid, objectId: plan.id, at: input.enrolledAt, declared: input.purchase }]);
        const purchase = bought.get(id);
        if (purchase) await linkEnrollmentPurchases(m, p.organizationId, 'plan_enrollments', [{ id, purchase: purchase.stored }]);
      }
      const e = await m.getRepository(PlanEnrollment).findOneByOrFail({ id, organizationId: p.organizationId });
      return { view: (await this.views(m, p, plan, [e]))[0], created };
    });
  }

  async updateEnrollment(p: Principal, domainName: string, planId: string, id: string, dto: ProgramEnrollmentUpdateDto): Promise<PlanEnrollmentView> {
    const domain = await this.domain(p, domainName);
    const input = parseEnrollmentUpdate(dto);
    return this.ds.transaction(async (m) => {
      const plan = await this.plan(m, p, domain, planId);
      const e = await this.enrollment(m, p, plan, id);
      const patch: Partial<PlanEnrollment> = {};
      if (input.expiresAt !== undefined) patch.expiresAt = input.expiresAt;
      if (input.active !== undefined) patch.active = input.active;
      if (Object.keys(patch).length) {
        await m.getRepository(PlanEnrollment).update({ id: e.id, organizationId: p.organizationId }, patch);
        Object.assign(e, patch);
      }
      return (await this.views(m, p, plan, [e]))[0];
    });
  }
}
