import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** The `offers` table, declared for TypeORM's metadata (docs/decisions/data-access.md); its row type: offers.store.ts. */
@Entity('offers')
export class Offer {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('uuid') organizationId: string;
  @Column('uuid', { nullable: true }) publishedPathId: string | null;
  @Column('uuid', { nullable: true }) planId: string | null;
  @Column('uuid', { nullable: true }) courseSeriesId: string | null;
  @Column('uuid', { nullable: true }) publishedCourseId: string | null;
  @Column('boolean') isDefault: boolean;
  @Column('boolean') registrationOpen: boolean;
  @Column('integer', { nullable: true }) priceCents: number | null;
  @Column('text') currencyCode: string;
  @Column('text', { nullable: true }) sku: string | null;
  @Column('text', { nullable: true }) description: string | null;
  @Column('timestamptz') createdAt: Date;
  @Column('timestamptz') updatedAt: Date;
}
