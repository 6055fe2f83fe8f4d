import type { ObjectLiteral, Repository } from 'typeorm';

/**
 * A row of the repository's table as raw SQL answers it (`RETURNING *`, `SELECT l.*`: snake_case
 * columns) → the entity, hydrated as TypeORM hydrates its own reads (every mapped column, with the
 * driver's value preparation). For the set-wise writes that go through `query()`.
 */
export function entityFromRow<T extends ObjectLiteral>(repo: Repository<T>, row: object): T {
  const entity = repo.metadata.create() as T;
  const driver = repo.manager.connection.driver;
  for (const column of repo.metadata.columns) column.setEntityValue(entity, driver.prepareHydratedValue((row as Record<string, unknown>)[column.databaseName], column));
  return entity;
}
