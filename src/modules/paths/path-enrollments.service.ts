import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import type { Principal } from '../../core/auth/principal';
import { eventDomain, eventPath, eventUser } from '../../core/events/bodies';
import { recordEvents } from '../../core/events/outbox';
import { notFound } from '../../core/http/api-error';
import { decodeId } from '../../core/ids/ids';
import type { V1PageRequest } from '../../core/pagination/v1-page';
import { loadOffers, OfferRow } from '../commerce/offers';
import { recordEnrollmentPurchases, RecordedPurchase } from '../commerce/free-purchases';
import { insertEnrollment, linkEnrollmentPurchases, parseEnrollmentCreate, parseEnrollmentUpdate } from '../enrollments/program-enrollments';
import { loadUsers, UserRow } from '../students/user-refs';
import type { ProgramEnrollmentCreateDto, ProgramEnrollmentUpdateDto } from '../enrollments/dto/program-enrollment.v1.dto';
import { PathLookups } from './path-lookups.service';
import { PublishedPath, PublishedPathEnrollment } from './published-path.entity';

export interface EnrollmentView {
  e: PublishedPathEnrollment;
  users: Map<string, UserRow>;
  offer: OfferRow | undefined;
}

/** Enrollments of a published path (table published_path_enrollments, owned here). */
@Injectable()
export class PathEnrollmentsService {
  constructor(
    private readonly ds: DataSource,
    private readonly lookups: PathLookups,
  ) {}

  private async enrollment(m: EntityManager, p: Principal, pp: PublishedPath, id: string): Promise<PublishedPathEnrollment> {
    const uuid = decodeId('publishedPathEnrollment', id);
    const e = uuid ? await m.getRepository(PublishedPathEnrollment).findOne({ where: { id: uuid, organizationId: p.organizationId, publishedPathId: pp.id } }) : null;
    if (!e) throw notFound();
    return e;
  }

  private async enrollmentViews(m: EntityManager, p: Principal, pp: PublishedPath, rows: PublishedPathEnrollment[]): Promise<EnrollmentView[]> {
    const [users, offers] = await Promise.all([loadUsers(m, p.organizationId, rows.map((r) => r.userId)), loadOffers(m, p.organizationId, 'published_path_id', [pp.id])]);
    return rows.map((e) => ({ e, users, offer: offers.get(pp.id) }));
  }

  async listEnrollments(p: Principal, domainName: string, id: string, page: V1PageRequest): Promise<{ rows: EnrollmentView[]; count: number }> {
    const domain = await this.lookups.domain(p, domainName);
    const m = this.ds.manager;
    const pp = await this.lookups.publishedPath(m, p, domain, id);
    const [rows, count] = await m.getRepository(PublishedPathEnrollment).findAndCount({
      where: { organizationId: p.organizationId, publishedPathId: pp.id },
      order: { createdAt: 'ASC', id: 'ASC' },
      take: page.pageSize,
      skip: page.offset,
    });
    return { rows: await this.enrollmentViews(m, p, pp, rows), count };
  }

  async readEnrollment(p: Principal, domainName: string, id: string, enrollmentId: string): Promise<EnrollmentView> {
    const domain = await this.lookups.domain(p, domainName);
    const m = this.ds.manager;
    const pp = await this.lookups.publishedPath(m, p, domain, id);
    return (await this.enrollmentViews(m, p, pp, [await this.enrollment(m, p, pp, enrollmentId)]))[0];
  }

  /**
   * Enroll a domain member (see insertEnrollment for idempotency): an existing enrollment is returned
   * unchanged and no event is recorded; a new one records its purchase (commerce
   * recordEnrollmentPurchases) and PATH_ENROLLMENT carrying it, in the same transaction.
   */
  async enroll(p: Principal, domainName: string, id: string, dto: ProgramEnrollmentCreateDto): Promise<{ view: EnrollmentView; created: boolean }> {
    const domain = await this.lookups.domain(p, domainName);
    return this.ds.transaction(async (m) => {
      const pp = await this.lookups.publishedPath(m, p, domain, id);
      const input = await parseEnrollmentCreate(m, p.organizationId, dto as any);
      const { id: enrollmentId, created } = await insertEnrollment(m, {
        organizationId: p.organizationId,
        domainId: domain.id,
        table: 'published_path_enrollments',
        owner: { column: 'published_path_id', id: pp.id },
        extra: { column: 'path_id', value: pp.pathId },
        input,
      });
      // a new registration records its purchase (commerce: $0 NONE, or what the body declared), kept on the enrollment and in the event
      const bought = created
        ? await recordEnrollmentPurchases(m, p.organizationId, 'published_path', [{ enrollmentId, userId: input.userUuid, objectId: pp.id, at: input.enrolledAt, declared: input.purchase }])
        : new Map<string, RecordedPurchase>();
      const purchase = bought.get(enrollmentId);
      if (purchase) await linkEnrollmentPurchases(m, p.organizationId, 'published_path_enrollments', [{ id: enrollmentId, purchase: purchase.stored }]);
      const e = await m.getRepository(PublishedPathEnrollment).findOneByOrFail({ id: enrollmentId, organizationId: p.organizationId });
      const [view] = await this.enrollmentViews(m, p, pp, [e]);
      if (created) {
        const path = await this.lookups.path(m, p, pp.pathId);
        const u = view.users.get(e.userId);
        await recordEvents(m, [
          {
            organizationId: p.organizationId,
            type: 'PATH_ENROLLMENT',
            objects: {
              user: eventUser({ id: e.userId, email: u?.email ?? '', first_name: u?.first_name ?? '', last_name: u?.last_name ?? '' }),
              path: eventPath({ path_id: path.id, published_path_id: pp.id, title: path.title, domain_name: domain.name, slug: pp.slug }),
              purchase: purchase?.event ?? null,
              domain: eventDomain(domain),
            },
          },
        ]);
      }
      return { view, created };
    });
  }

  async updateEnrollment(p: Principal, domainName: string, id: string, enrollmentId: string, dto: ProgramEnrollmentUpdateDto): Promise<EnrollmentView> {
    const domain = await this.lookups.domain(p, domainName);
    const input = parseEnrollmentUpdate(dto);
    return this.ds.transaction(async (m) => {
      const pp = await this.lookups.publishedPath(m, p, domain, id);
      const e = await this.enrollment(m, p, pp, enrollmentId);
      const patch: Partial<PublishedPathEnrollment> = {};
      if (input.expiresAt !== undefined) patch.expiresAt = input.expiresAt;
      if (input.active !== undefined) patch.active = input.active;
      if (Object.keys(patch).length) {
        await m.getRepository(PublishedPathEnrollment).update({ id: e.id, organizationId: p.organizationId }, patch);
        Object.assign(e, patch);
      }
      return (await this.enrollmentViews(m, p, pp, [e]))[0];
    });
  }
}
