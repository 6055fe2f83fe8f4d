import type { EntityManager, EntityTarget, ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import { notFound } from '../http/api-error';

/**
 * The /v1 reads and writes of a course or lesson row by id, within its organization (the
 * statement names both): the read (locked when asked) or 404, a change of some columns, and the
 * soft delete.
 */

/** The row `qb` finds (locked for update when `lock`), or the /v1 404. */
export async function oneOr404<E extends ObjectLiteral>(qb: SelectQueryBuilder<E>, lock: boolean): Promise<E> {
  if (lock) qb.setLock('pessimistic_write');
  const row = await qb.getOne();
  if (!row) throw notFound();
  return row;
}

/** Set the columns of `set` on the organization's row `id`; its modified time moves (milliseconds), also when `set` is empty. */
export async function setColumns<E extends ObjectLiteral>(m: EntityManager, entity: EntityTarget<E>, org: string, id: string, set: object): Promise<void> {
  await m
    .getRepository(entity)
    .createQueryBuilder()
    .update()
    .set({ ...set, updatedAt: () => "date_trunc('milliseconds', now())" } as never)
    .where('id = :id AND organization_id = :org', { id, org })
    .execute();
}

/** Soft-delete the organization's live row `id`: deleted_at now, updated_at as `updatedAt` says. */
export async function softDelete<E extends ObjectLiteral>(m: EntityManager, entity: EntityTarget<E>, org: string, id: string, updatedAt: () => string): Promise<void> {
  await m
    .getRepository(entity)
    .createQueryBuilder()
    .update()
    .set({ deletedAt: () => 'now()', updatedAt } as never)
    .where('id = :id AND organization_id = :org AND deleted_at IS NULL', { id, org })
    .execute();
}
