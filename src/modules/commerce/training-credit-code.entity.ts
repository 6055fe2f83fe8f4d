import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** The `training_credit_codes` table, declared for TypeORM's metadata (docs/decisions/data-access.md); its row type: training-credit-codes.store.ts. */
@Entity('training_credit_codes')
export class TrainingCreditCode {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('uuid') organizationId: string;
  @Column('text') code: string;
  @Column('integer') creditsTotal: number;
  @Column('integer') creditsUsed: number;
  @Column('timestamptz', { nullable: true }) expirationDate: Date | null;
  @Column('boolean') expireContent: boolean;
  @Column('text') trackingIdentifier: string;
  @Column('boolean') availableToAllStudents: boolean;
  @Column('boolean') availableForAllOffers: boolean;
  @Column('timestamptz') createdAt: Date;
  @Column('timestamptz') updatedAt: Date;
}
