import { Column, Entity, PrimaryColumn } from 'typeorm';

/** The `promo_code_pool_offers` table, declared for TypeORM's metadata (docs/decisions/data-access.md); its row type: promo-code-pool-offers.store.ts. */
@Entity('promo_code_pool_offers')
export class PromoCodePoolOffer {
  @Column('uuid') organizationId: string;
  @PrimaryColumn('uuid') poolId: string;
  @PrimaryColumn('uuid') offerId: string;
  @Column('timestamptz') createdAt: Date;
}
