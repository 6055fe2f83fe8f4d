import { Column, Entity, PrimaryColumn } from 'typeorm';

/** The `manager_access_licenses` table, declared for TypeORM's metadata (docs/decisions/data-access.md); its row type: manager-access-licenses.store.ts. */
@Entity('manager_access_licenses')
export class ManagerAccessLicense {
  @Column('uuid') organizationId: string;
  @PrimaryColumn('uuid') managerAccessId: string;
  @PrimaryColumn('uuid') licensePackageId: string;
  @Column('integer') position: number;
}
