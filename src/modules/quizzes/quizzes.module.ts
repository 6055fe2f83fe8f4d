import { Module } from '@nestjs/common';
import { ProgressModule } from '../progress/progress.module';
import { QuizAttemptsV1Controller } from './attempts.v1.controller';
import { AttemptsService } from './attempts.service';
import { QuizQuestionsV1Controller, QuestionBanksV1Controller, QuizzesV1Controller } from './quizzes.v1.controller';
import { QuizzesService } from './quizzes.service';
import { QuizzesV1Service } from './quizzes.v1.service';
import { QuestionBanksV2Controller, QuestionsV2Controller, QuizBanksV2Controller, QuizzesV2Controller } from './quizzes.v2.controller';
import { QuizzesV2Service } from './quizzes.v2.service';
import { TypeOrmModule } from '@nestjs/typeorm';
import { QuestionBankAssignment } from './question-bank-assignment.entity';
import { QuestionBank } from './question-bank.entity';
import { Question } from './question.entity';
import { QuizAttempt } from './quiz-attempt.entity';
import { Quiz } from './quiz.entity';

/**
 * Quizzes, question banks, questions and question-bank assignments on /v1 and /v2 over one model
 * (CONVENTIONS §12), and graded attempts. Owns quizzes, question_banks, questions,
 * question_bank_assignments and quiz_attempts. docs/decisions/quizzes.md.
 */
@Module({
  imports: [TypeOrmModule.forFeature([QuestionBankAssignment, QuestionBank, Question, QuizAttempt, Quiz]), ProgressModule],
  controllers: [
    QuizAttemptsV1Controller,
    QuizzesV1Controller,
    QuizQuestionsV1Controller,
    QuestionBanksV1Controller,
    QuizzesV2Controller,
    QuizBanksV2Controller,
    QuestionBanksV2Controller,
    QuestionsV2Controller,
  ],
  providers: [AttemptsService, QuizzesService, QuizzesV1Service, QuizzesV2Service],
  exports: [QuizzesService],
})
export class QuizzesModule {}
