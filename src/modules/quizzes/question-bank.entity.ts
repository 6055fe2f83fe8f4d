import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** The `question_banks` table, declared for TypeORM's metadata (docs/decisions/data-access.md); its row type: question-banks.store.ts. */
@Entity('question_banks')
export class QuestionBank {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('uuid') organizationId: string;
  @Column('varchar', { length: 500 }) name: string;
  @Column('timestamptz') createdAt: Date;
  @Column('timestamptz') updatedAt: Date;
  @Column('timestamptz', { nullable: true }) deletedAt: Date | null;
}
