import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** The `question_bank_assignments` table, declared for TypeORM's metadata (docs/decisions/data-access.md); its row type: question-bank-assignments.store.ts. */
@Entity('question_bank_assignments')
export class QuestionBankAssignment {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('uuid') organizationId: string;
  @Column('uuid') quizId: string;
  @Column('uuid') questionBankId: string;
  @Column('integer') order: number;
  @Column('boolean') randomizeQuestions: boolean;
  @Column('integer') limitQuestionCount: number;
  @Column('timestamptz') createdAt: Date;
  @Column('timestamptz') updatedAt: Date;
}
