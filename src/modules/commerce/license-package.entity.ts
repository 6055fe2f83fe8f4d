import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** The `license_packages` table, declared for TypeORM's metadata (docs/decisions/data-access.md); its row type: license-packages.store.ts. */
@Entity('license_packages')
export class LicensePackage {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('uuid') organizationId: string;
  @Column('uuid') domainId: string;
  @Column('text') name: string;
  @Column('text') trackingId: string;
  @Column('timestamptz') startDate: Date;
  @Column('timestamptz', { nullable: true }) endDate: Date | null;
  @Column('integer') licenseCount: number;
  @Column('integer', { nullable: true }) maxUniqueSeats: number | null;
  @Column('timestamptz') createdAt: Date;
  @Column('timestamptz') updatedAt: Date;
}
