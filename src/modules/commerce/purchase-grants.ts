import type { EntityManager } from 'typeorm';
import type { UserCols } from '../../core/events/bodies';
import type { EventPurchase } from '../../core/events/event-payloads';
import type { StoredPurchase } from './purchases';

type Domain = { id: string; name: string };
export type ProgramEnrollmentTable = 'plan_enrollments' | 'published_path_enrollments';

/**
 * The writes a purchase's fulfilment and refund make on tables other modules own (domain
 * memberships: domain-users; course, path and plan enrollments: enrollments), each the owner's
 * function, in the caller's transaction. Declared here and provided by the root
 * (src/purchase-grants.module.ts), so commerce, below those modules in the module graph, imports
 * none of them (docs/decisions/module-graph.md).
 */
export abstract class PurchaseGrantWrites {
  /** The buyer joins the offer's domain (DOMAIN_ENROLLMENT when new): true when the membership was created. */
  abstract joinDomain(m: EntityManager, o: { organizationId: string; domain: Domain; user: UserCols; purchase: EventPurchase | null }): Promise<boolean>;
  /** Enrolls the buyer in the live published courses (their events, progress joined): the ids created. */
  abstract enrollInCourses(
    m: EntityManager,
    o: { organizationId: string; user: UserCols; domain: Domain; courses: { publishedCourseId: string; courseId: string; slug: string; title: string }[]; purchase: EventPurchase | null },
  ): Promise<string[]>;
  /** A published path's or plan's enrollment (kept when the user has one): its id, and whether this call created it. */
  abstract insertProgramEnrollment(
    m: EntityManager,
    o: {
      organizationId: string;
      domainId: string;
      table: ProgramEnrollmentTable;
      owner: { column: 'plan_id' | 'published_path_id'; id: string };
      extra?: { column: 'path_id'; value: string };
      input: { userUuid: string; enrolledAt: Date | null; expiresAt: Date | null; active: boolean; purchase: StoredPurchase | null };
    },
  ): Promise<{ id: string; created: boolean }>;
  /** Course enrollments (de)activated: how many changed. */
  abstract setEnrollmentsActive(m: EntityManager, organizationId: string, ids: string[], active: boolean): Promise<number>;
  abstract setProgramEnrollmentsActive(m: EntityManager, organizationId: string, table: ProgramEnrollmentTable, ids: string[], active: boolean): Promise<void>;
}
