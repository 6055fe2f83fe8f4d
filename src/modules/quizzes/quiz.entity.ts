import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** The `quizzes` table, declared for TypeORM's metadata (docs/decisions/data-access.md); its row type: quizzes.store.ts. */
@Entity('quizzes')
export class Quiz {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('uuid') organizationId: string;
  @Column('varchar', { length: 500 }) name: string;
  @Column('text') html: string;
  @Column('integer') passingPercentageCorrect: number;
  @Column('boolean') showResultsOnFailure: boolean;
  @Column('integer') maxAttempts: number;
  @Column('boolean') requireCorrectResponse: boolean;
  @Column('boolean') randomizeQuestions: boolean;
  @Column('integer') limitQuestionCount: number;
  @Column('boolean') randomizeAnswers: boolean;
  @Column('integer', { nullable: true }) timeLimitSeconds: number | null;
  @Column('boolean') showQuestionFeedback: boolean;
  @Column('boolean', { nullable: true }) skipStartScreen: boolean | null;
  @Column('text') alignment: string;
  @Column('timestamptz') createdAt: Date;
  @Column('timestamptz') updatedAt: Date;
  @Column('timestamptz', { nullable: true }) deletedAt: Date | null;
}
