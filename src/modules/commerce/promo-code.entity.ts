import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** The `promo_codes` table, declared for TypeORM's metadata (docs/decisions/data-access.md); its row type: promo-codes.store.ts. */
@Entity('promo_codes')
export class PromoCode {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('uuid') organizationId: string;
  @Column('uuid') poolId: string;
  @Column('text') code: string;
  @Column('integer') maxUses: number;
  @Column('integer') useCount: number;
  @Column('boolean') active: boolean;
  @Column('timestamptz') createdAt: Date;
  @Column('timestamptz') updatedAt: Date;
}
