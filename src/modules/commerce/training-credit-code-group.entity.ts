import { Column, Entity, PrimaryColumn } from 'typeorm';

/** The `training_credit_code_groups` table, declared for TypeORM's metadata (docs/decisions/data-access.md); its row type: training-credit-code-groups.store.ts. */
@Entity('training_credit_code_groups')
export class TrainingCreditCodeGroup {
  @Column('uuid') organizationId: string;
  @PrimaryColumn('uuid') codeId: string;
  @PrimaryColumn('uuid') groupId: string;
  @Column('timestamptz') createdAt: Date;
}
