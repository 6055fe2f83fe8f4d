import { Column, Entity, PrimaryColumn } from 'typeorm';

/** The `manager_access_paths` table, declared for TypeORM's metadata (docs/decisions/data-access.md); its row type: manager-access-paths.store.ts. */
@Entity('manager_access_paths')
export class ManagerAccessPath {
  @Column('uuid') organizationId: string;
  @PrimaryColumn('uuid') managerAccessId: string;
  @PrimaryColumn('uuid') pathId: string;
  @Column('integer') position: number;
}
