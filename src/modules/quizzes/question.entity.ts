import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** The `questions` table, declared for TypeORM's metadata (docs/decisions/data-access.md); its row type: questions.store.ts. */
@Entity('questions')
export class Question {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('uuid') organizationId: string;
  @Column('uuid', { nullable: true }) quizId: string | null;
  @Column('uuid', { nullable: true }) questionBankId: string | null;
  @Column('text') type: string;
  @Column('text') html: string;
  @Column('integer') order: number;
  @Column('boolean') caseSensitive: boolean;
  @Column('boolean') requiresManualGrading: boolean;
  @Column('boolean') isGraded: boolean;
  @Column('boolean') isOptional: boolean;
  @Column('text') correctAnswerFeedbackHtml: string;
  @Column('text') incorrectAnswerFeedbackHtml: string;
  @Column('text') answerFeedbackHtml: string;
  @Column('jsonb') answers: unknown;
  @Column('timestamptz') createdAt: Date;
  @Column('timestamptz') updatedAt: Date;
  @Column('timestamptz', { nullable: true }) deletedAt: Date | null;
}
