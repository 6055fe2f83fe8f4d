import { Column, Entity, PrimaryColumn } from 'typeorm';

/** The `training_credit_code_offers` table, declared for TypeORM's metadata (docs/decisions/data-access.md); its row type: training-credit-code-offers.store.ts. */
@Entity('training_credit_code_offers')
export class TrainingCreditCodeOffer {
  @Column('uuid') organizationId: string;
  @PrimaryColumn('uuid') codeId: string;
  @PrimaryColumn('uuid') offerId: string;
  @Column('timestamptz') createdAt: Date;
}
