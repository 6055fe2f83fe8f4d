import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { Principal } from '../../core/auth/principal';
import { eventDomain, eventPath, eventUser } from '../../core/events/bodies';
import { recordEvents } from '../../core/events/outbox';
import type { V1PageRequest } from '../../core/pagination/v1-page';
import { parseEnrollmentUpdate } from '../enrollments/program-enrollments';
import { ProgramEnrollmentRows, ProgramEnrollmentView } from '../plans/program-enrollment-rows';
import type { ProgramEnrollmentCreateDto, ProgramEnrollmentUpdateDto } from '../enrollments/dto/program-enrollment.v1.dto';
import { PathLookups } from './path-lookups.service';
import { PublishedPathEnrollment } from './published-path.entity';

export type EnrollmentView = ProgramEnrollmentView<PublishedPathEnrollment>;

const ENROLLMENTS = new ProgramEnrollmentRows(PublishedPathEnrollment, 'published_path', 'publishedPathId');

/** Enrollments of a published path (table published_path_enrollments, owned here). */
@Injectable()
export class PathEnrollmentsService {
  constructor(
    private readonly ds: DataSource,
    private readonly lookups: PathLookups,
  ) {}

  async listEnrollments(p: Principal, domainName: string, id: string, page: V1PageRequest): Promise<{ rows: EnrollmentView[]; count: number }> {
    const domain = await this.lookups.domain(p, domainName);
    const m = this.ds.manager;
    return ENROLLMENTS.page(m, p.organizationId, (await this.lookups.publishedPath(m, p, domain, id)).id, page);
  }

  async readEnrollment(p: Principal, domainName: string, id: string, enrollmentId: string): Promise<EnrollmentView> {
    const domain = await this.lookups.domain(p, domainName);
    const m = this.ds.manager;
    return ENROLLMENTS.read(m, p.organizationId, (await this.lookups.publishedPath(m, p, domain, id)).id, enrollmentId);
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
      const extra = { column: 'path_id' as const, value: pp.pathId };
      const { view, created, purchase } = await ENROLLMENTS.enroll(m, p.organizationId, { id: pp.id, domainId: domain.id, extra }, dto);
      const e = view.e;
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
    return this.ds.transaction(async (m) => ENROLLMENTS.update(m, p.organizationId, (await this.lookups.publishedPath(m, p, domain, id)).id, enrollmentId, input));
  }
}
