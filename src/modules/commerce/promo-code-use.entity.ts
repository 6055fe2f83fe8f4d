import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** The `promo_code_uses` table, declared for TypeORM's metadata (docs/decisions/data-access.md); its row type: promo-code-uses.store.ts. */
@Entity('promo_code_uses')
export class PromoCodeUse {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('uuid') organizationId: string;
  @Column('uuid') promoCodeId: string;
  @Column('uuid') poolId: string;
  @Column('uuid') userId: string;
  @Column('uuid') purchaseId: string;
  @Column('timestamptz') createdAt: Date;
  @Column('timestamptz', { nullable: true }) releasedAt: Date | null;
}
