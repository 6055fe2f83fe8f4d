import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** The `promo_code_pools` table, declared for TypeORM's metadata (docs/decisions/data-access.md); its row type: promo-code-pools.store.ts. */
@Entity('promo_code_pools')
export class PromoCodePool {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('uuid') organizationId: string;
  @Column('text') name: string;
  @Column('boolean') active: boolean;
  @Column('timestamptz') startsAt: Date;
  @Column('timestamptz', { nullable: true }) expiresAt: Date | null;
  @Column('boolean') expireContent: boolean;
  @Column('text') discountType: string;
  @Column('integer', { nullable: true }) priceCents: number | null;
  @Column('integer', { nullable: true }) percentOff: number | null;
  @Column('boolean') singleUsePerUser: boolean;
  @Column('timestamptz') createdAt: Date;
  @Column('timestamptz') updatedAt: Date;
}
