import { Column, Entity, PrimaryColumn } from 'typeorm';

/** The `license_package_offers` table, declared for TypeORM's metadata (docs/decisions/data-access.md); its row type: license-package-offers.store.ts. */
@Entity('license_package_offers')
export class LicensePackageOffer {
  @Column('uuid') organizationId: string;
  @PrimaryColumn('uuid') packageId: string;
  @PrimaryColumn('uuid') offerId: string;
  @Column('timestamptz') createdAt: Date;
}
