import { EntityManager, FindOptionsWhere, MoreThanOrEqual } from 'typeorm';
import { notFound } from '../../core/http/api-error';
import { decodeId, IdType } from '../../core/ids/ids';
import type { V1PageRequest } from '../../core/pagination/v1-page';
import { loadOffers, OfferRow } from '../commerce/offers';
import { recordEnrollmentPurchases, RecordedPurchase } from '../commerce/free-purchases';
import type { ProgramEnrollmentCreateDto } from '../enrollments/dto/program-enrollment.v1.dto';
import type { EnrollmentColumns } from '../enrollments/enrollment.entity';
import { insertEnrollment, linkEnrollmentPurchases, parseEnrollmentCreate, parseEnrollmentUpdate } from '../enrollments/program-enrollments';
import { loadUsers, UserRow } from '../students/user-refs';

/** An enrollment as /v1 presents it: the row, its user, the program's offer. */
export interface ProgramEnrollmentView<E> {
  e: E;
  users: Map<string, UserRow>;
  offer: OfferRow | undefined;
}

/** A program whose enrollments these are: the plan or the published path (`extra`: the path a published path's enrollment also names). */
export interface EnrolledProgram {
  id: string;
  domainId: string;
  extra?: { column: 'path_id'; value: string };
}

/**
 * The enrollments of one kind of program (plans: plan_enrollments, published paths:
 * published_path_enrollments), as both /v1 sub-resources serve them: found by public id within the
 * program (404 otherwise), paged in creation order, presented with their users and the program's
 * offer, created idempotently with their purchase (insertEnrollment, commerce's
 * recordEnrollmentPurchases), and updated (expires_at, active). Every statement in the caller's
 * manager, on the caller's organization.
 */
export class ProgramEnrollmentRows<E extends EnrollmentColumns> {
  private readonly spec: {
    entity: new () => E;
    kind: IdType;
    table: 'plan_enrollments' | 'published_path_enrollments';
    /** the program: the entity's property, its column, and the purchases' object */
    owner: { property: keyof E & string; column: 'plan_id' | 'published_path_id'; object: 'plan' | 'published_path' };
  };

  /** `object`: the program (the tables and columns are named after it); `property`: the entity's property holding the program's uuid. */
  constructor(entity: new () => E, object: 'plan' | 'published_path', property: keyof E & string) {
    const kind = object === 'plan' ? 'planEnrollment' : 'publishedPathEnrollment';
    this.spec = { entity, kind, table: `${object}_enrollments`, owner: { property, column: `${object}_id`, object } };
  }

  private where(organizationId: string, programId: string, more: object = {}): FindOptionsWhere<E> {
    return { organizationId, [this.spec.owner.property]: programId, ...more } as FindOptionsWhere<E>;
  }

  async find(m: EntityManager, organizationId: string, programId: string, publicId: string): Promise<E> {
    const uuid = decodeId(this.spec.kind, publicId);
    const e = uuid ? await m.getRepository(this.spec.entity).findOne({ where: this.where(organizationId, programId, { id: uuid }) }) : null;
    if (!e) throw notFound();
    return e;
  }

  async views(m: EntityManager, organizationId: string, programId: string, rows: E[]): Promise<ProgramEnrollmentView<E>[]> {
    const [users, offers] = await Promise.all([
      loadUsers(
        m,
        organizationId,
        rows.map((r) => r.userId),
      ),
      loadOffers(m, organizationId, this.spec.owner.column, [programId]),
    ]);
    return rows.map((e) => ({ e, users, offer: offers.get(programId) }));
  }

  async page(m: EntityManager, organizationId: string, programId: string, page: V1PageRequest): Promise<{ rows: ProgramEnrollmentView<E>[]; count: number }> {
    // with updated_since: the enrollments changed since, by last change (on (<program>_id, updated_at, id))
    const since = page.updatedSince;
    const [rows, count] = await m.getRepository(this.spec.entity).findAndCount({
      where: this.where(organizationId, programId, since ? { updatedAt: MoreThanOrEqual(since) } : {}),
      order: (since ? { updatedAt: 'ASC', id: 'ASC' } : { createdAt: 'ASC', id: 'ASC' }) as never,
      take: page.pageSize,
      skip: page.offset,
    });
    return { rows: await this.views(m, organizationId, programId, rows), count };
  }

  async read(m: EntityManager, organizationId: string, programId: string, publicId: string): Promise<ProgramEnrollmentView<E>> {
    return (await this.views(m, organizationId, programId, [await this.find(m, organizationId, programId, publicId)]))[0];
  }

  /**
   * Enroll a domain member: an existing enrollment is returned unchanged (see insertEnrollment); a
   * new one records its purchase (commerce: $0 NONE, or what the body declared), kept on the
   * enrollment and returned for the caller's event. In the caller's transaction.
   */
  async enroll(
    m: EntityManager,
    organizationId: string,
    program: EnrolledProgram,
    dto: ProgramEnrollmentCreateDto,
  ): Promise<{ view: ProgramEnrollmentView<E>; created: boolean; purchase?: RecordedPurchase }> {
    const { table, owner } = this.spec;
    const input = await parseEnrollmentCreate(m, organizationId, dto as any);
    const { id, created } = await insertEnrollment(m, { organizationId, domainId: program.domainId, table, owner: { column: owner.column, id: program.id }, extra: program.extra, input });
    const bought = created
      ? await recordEnrollmentPurchases(m, organizationId, owner.object, [{ enrollmentId: id, userId: input.userUuid, objectId: program.id, at: input.enrolledAt, declared: input.purchase }])
      : new Map<string, RecordedPurchase>();
    const purchase = bought.get(id);
    if (purchase) await linkEnrollmentPurchases(m, organizationId, table, [{ id, purchase: purchase.stored }]);
    const e = await m.getRepository(this.spec.entity).findOneByOrFail({ id, organizationId } as FindOptionsWhere<E>);
    return { view: (await this.views(m, organizationId, program.id, [e]))[0], created, purchase };
  }

  /** PUT/PATCH: expires_at and active, the members sent. In the caller's transaction. */
  async update(m: EntityManager, organizationId: string, programId: string, publicId: string, input: ReturnType<typeof parseEnrollmentUpdate>): Promise<ProgramEnrollmentView<E>> {
    const e = await this.find(m, organizationId, programId, publicId);
    const patch: Partial<EnrollmentColumns> = {};
    if (input.expiresAt !== undefined) patch.expiresAt = input.expiresAt;
    if (input.active !== undefined) patch.active = input.active;
    if (Object.keys(patch).length) {
      await m.getRepository(this.spec.entity).update({ id: e.id, organizationId } as FindOptionsWhere<E>, patch as never);
      Object.assign(e, patch);
    }
    return (await this.views(m, organizationId, programId, [e]))[0];
  }
}
