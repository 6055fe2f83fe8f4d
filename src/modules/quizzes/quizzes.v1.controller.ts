import { Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { V1 } from '../../core/http/interfaces';
import { V1Resource } from '../../core/http/v1-resource';
import { V1_PAGE_CAP } from '../../core/pagination/v1-page';
import {
  PatchedQuestionBankRequest,
  PatchedQuestionUpdateRequest,
  PatchedQuizRequest,
  QuestionBankRequest,
  QuestionRequest,
  QuestionUpdateRequest,
  QuizListQuery,
  QuizRequest,
} from './dto/quiz.v1.dto';
import { presentAssignmentV1, presentBankV1, presentQuestionSummaryV1, presentQuestionV1, presentQuizV1 } from './quizzes.presenter';
import { ParentQuestions, QuizzesV1Service } from './quizzes.v1.service';

/** Lists of up to 1000 (the default). */
const cap = V1_PAGE_CAP.large;

/** The questions of a quiz or a bank at `<parent>/{parent id}/questions/{question_id}`: list, read, delete. */
const parentQuestions = (service: string, at: string, scopes: string) =>
  V1Resource<ParentQuestions>({
    service, at, id: 'question_id', scopes, present: presentQuestionSummaryV1,
    list: { call: 'list', handler: 'questions', cap },
    read: { call: 'read', handler: 'question' },
    remove: { call: 'remove', handler: 'removeQuestion' },
  });

/** /v1/quizzes with its question banks and questions (quizzes:read / quizzes:write); the decorators nearest @Controller make the first paths of the OpenAPI document. */
@V1()
@ApiTags('v1 quizzes')
@parentQuestions('quizzes.quizQuestions', ':quiz_id/questions', 'quizzes')
@V1Resource<QuizzesV1Service>({
  service: 'quizzes', at: ':quiz_id/question-banks', id: 'question_bank_id', scopes: 'quizzes', present: presentAssignmentV1,
  list: { call: 'quizBanks', handler: 'banks', cap },
  read: { call: 'quizBank', handler: 'bank' },
})
@V1Resource<QuizzesV1Service>({
  service: 'quizzes', id: 'quiz_id', scopes: 'quizzes', present: presentQuizV1,
  // an empty filter value filters nothing (as django-filter does)
  list: { call: 'listQuizzes', handler: 'list', cap, query: QuizListQuery, filters: (q: QuizListQuery) => q.name || undefined },
  create: { call: 'createQuiz', handler: 'create', body: QuizRequest },
  read: { call: 'readQuiz', handler: 'read' },
  update: { call: 'updateQuiz', handler: 'update', body: QuizRequest, patchBody: PatchedQuizRequest },
  remove: { call: 'deleteQuiz', handler: 'remove' },
})
@Controller('v1/quizzes')
export class QuizzesV1Controller {
  constructor(private readonly quizzes: QuizzesV1Service) {}
}

/** /v1/quiz-questions: a question of a quiz or of a question bank (quizzes or question-banks scopes). */
@V1()
@ApiTags('v1 quiz questions')
@V1Resource<QuizzesV1Service>({
  service: 'quizzes', id: 'question_id', scopes: ['quizzes', 'question-banks'], present: presentQuestionV1,
  create: { call: 'createQuestion', handler: 'create', body: QuestionRequest },
  read: { call: 'readQuestion', handler: 'read' },
  update: { call: 'updateQuestion', handler: 'update', body: QuestionUpdateRequest, patchBody: PatchedQuestionUpdateRequest },
  remove: { call: 'deleteQuestion', handler: 'remove' },
})
@Controller('v1/quiz-questions')
export class QuizQuestionsV1Controller {
  constructor(private readonly quizzes: QuizzesV1Service) {}
}

/** /v1/question-banks with their questions (question-banks:read / question-banks:write). */
@V1()
@ApiTags('v1 question banks')
@parentQuestions('quizzes.bankQuestions', ':question_bank_id/questions', 'question-banks')
@V1Resource<QuizzesV1Service>({
  service: 'quizzes', id: 'question_bank_id', scopes: 'question-banks', present: presentBankV1,
  list: { call: 'listBanks', handler: 'list', cap },
  create: { call: 'createBank', handler: 'create', body: QuestionBankRequest },
  read: { call: 'readBank', handler: 'read' },
  update: { call: 'updateBank', handler: 'update', body: QuestionBankRequest, patchBody: PatchedQuestionBankRequest },
  remove: { call: 'deleteBank', handler: 'remove' },
})
@Controller('v1/question-banks')
export class QuestionBanksV1Controller {
  constructor(private readonly quizzes: QuizzesV1Service) {}
}
