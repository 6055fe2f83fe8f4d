import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** The `quiz_attempts` table, declared for TypeORM's metadata (docs/decisions/data-access.md); its row type: quiz-attempts.store.ts. */
@Entity('quiz_attempts')
export class QuizAttempt {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('uuid') organizationId: string;
  @Column('uuid') quizId: string;
  @Column('uuid') userId: string;
  @Column('uuid') lessonId: string;
  @Column('uuid') lessonProgressId: string;
  @Column('uuid') publishedCourseId: string;
  @Column('integer') attemptNumber: number;
  @Column('text') status: string;
  @Column('jsonb') questions: unknown;
  @Column('jsonb', { nullable: true }) responses: unknown | null;
  @Column('integer', { nullable: true }) score: number | null;
  @Column('integer', { nullable: true }) maxScore: number | null;
  @Column('integer', { nullable: true }) percentageCorrect: number | null;
  @Column('boolean', { nullable: true }) passed: boolean | null;
  @Column('timestamptz') startedAt: Date;
  @Column('timestamptz', { nullable: true }) expiresAt: Date | null;
  @Column('timestamptz', { nullable: true }) submittedAt: Date | null;
  @Column('timestamptz') createdAt: Date;
}
