import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** The `training_credit_spends` table, declared for TypeORM's metadata (docs/decisions/data-access.md); its row type: training-credit-spends.store.ts. */
@Entity('training_credit_spends')
export class TrainingCreditSpend {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('uuid') organizationId: string;
  @Column('uuid') codeId: string;
  @Column('uuid') userId: string;
  @Column('uuid') purchaseId: string;
  @Column('integer') credits: number;
  @Column('integer') spentCents: number;
  @Column('timestamptz') createdAt: Date;
  @Column('timestamptz', { nullable: true }) releasedAt: Date | null;
}
