import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** The `license_seats` table, declared for TypeORM's metadata (docs/decisions/data-access.md); its row type: license-seats.store.ts. */
@Entity('license_seats')
export class LicenseSeatEntity {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('uuid') organizationId: string;
  @Column('uuid') packageId: string;
  @Column('uuid') userId: string;
  @Column('boolean') active: boolean;
  @Column('timestamptz') enrolledAt: Date;
  @Column('timestamptz') createdAt: Date;
  @Column('timestamptz') updatedAt: Date;
}
