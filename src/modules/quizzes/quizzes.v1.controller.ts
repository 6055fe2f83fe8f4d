import { applyDecorators, Controller, Injectable, Type } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { V1 } from '../../core/http/interfaces';
import { V1Resource, V1ResourceSpec } from '../../core/routes/v1-resource';
import { MethodRef, serviceIn } from '../../core/http/service-ref';
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

type Q = QuizzesV1Service;

/** The QuizzesV1Service methods of each resource's object operations. */
const OBJECT_METHODS = {
  Quiz: { create: (s: Q) => s.createQuiz, read: (s: Q) => s.readQuiz, update: (s: Q) => s.updateQuiz, remove: (s: Q) => s.deleteQuiz },
  Question: { create: (s: Q) => s.createQuestion, read: (s: Q) => s.readQuestion, update: (s: Q) => s.updateQuestion, remove: (s: Q) => s.deleteQuestion },
  Bank: { create: (s: Q) => s.createBank, read: (s: Q) => s.readBank, update: (s: Q) => s.updateBank, remove: (s: Q) => s.deleteBank },
} satisfies Record<string, Record<'create' | 'read' | 'update' | 'remove', MethodRef<Q>>>;

/**
 * The object operations of a resource of QuizzesV1Service (OBJECT_METHODS): handlers create,
 * read, update (PUT with `body`, PATCH with `patchBody`) and remove.
 */
const objectOps = (name: keyof typeof OBJECT_METHODS, body: Type, updateBody: Type, patchBody: Type) => ({
  create: { call: OBJECT_METHODS[name].create, handler: 'create', body },
  read: { call: OBJECT_METHODS[name].read, handler: 'read' },
  update: { call: OBJECT_METHODS[name].update, handler: 'update', body: updateBody, patchBody },
  remove: { call: OBJECT_METHODS[name].remove, handler: 'remove' },
});

/** The questions of a quiz or a bank at `<parent>/{parent id}/questions/{question_id}`: list, read, delete. */
const parentQuestions = (part: (s: Q) => ParentQuestions, at: string, scopes: string) =>
  V1Resource<ParentQuestions>({
    service: serviceIn(QuizzesV1Service, part),
    at,
    id: 'question_id',
    scopes,
    present: presentQuestionSummaryV1,
    list: { call: (s) => s.list, handler: 'questions', cap },
    read: { call: (s) => s.read, handler: 'question' },
    remove: { call: (s) => s.remove, handler: 'removeQuestion' },
  });

/** What every /v1 quiz controller holds: the service its operations call (`quizzes`). */
@Injectable()
class OverQuizzesV1 {
  constructor(protected readonly quizzes: QuizzesV1Service) {}
}

/** A V1Resource over QuizzesV1Service. */
const quizResource = (spec: Omit<V1ResourceSpec<QuizzesV1Service>, 'service'>) => V1Resource<QuizzesV1Service>({ service: QuizzesV1Service, ...spec });

/**
 * A /v1 quiz controller at `path`, tagged `tag` in the OpenAPI document, with the operations the
 * resource decorators declare: the first makes the first paths of the document.
 */
const QuizzesV1 = (path: string, tag: string, ...resources: ClassDecorator[]) => applyDecorators(Controller(path), ...resources, ApiTags(tag), V1());

/** /v1/quizzes with its question banks and questions (quizzes:read / quizzes:write). */
@QuizzesV1(
  'v1/quizzes',
  'v1 quizzes',
  quizResource({
    id: 'quiz_id',
    scopes: 'quizzes',
    present: presentQuizV1,
    // an empty filter value filters nothing (as django-filter does)
    list: { call: (s) => s.listQuizzes, handler: 'list', cap, query: QuizListQuery, filters: (q: QuizListQuery) => q.name || undefined },
    ...objectOps('Quiz', QuizRequest, QuizRequest, PatchedQuizRequest),
  }),
  quizResource({
    at: ':quiz_id/question-banks',
    id: 'question_bank_id',
    scopes: 'quizzes',
    present: presentAssignmentV1,
    list: { call: (s) => s.quizBanks, handler: 'banks', cap },
    read: { call: (s) => s.quizBank, handler: 'bank' },
  }),
  parentQuestions((s) => s.quizQuestions, ':quiz_id/questions', 'quizzes'),
)
export class QuizzesV1Controller extends OverQuizzesV1 {}

/** /v1/quiz-questions: a question of a quiz or of a question bank (quizzes or question-banks scopes). */
@QuizzesV1(
  'v1/quiz-questions',
  'v1 quiz questions',
  quizResource({
    id: 'question_id',
    scopes: ['quizzes', 'question-banks'],
    present: presentQuestionV1,
    ...objectOps('Question', QuestionRequest, QuestionUpdateRequest, PatchedQuestionUpdateRequest),
  }),
)
export class QuizQuestionsV1Controller extends OverQuizzesV1 {}

/** /v1/question-banks with their questions (question-banks:read / question-banks:write). */
@QuizzesV1(
  'v1/question-banks',
  'v1 question banks',
  quizResource({
    id: 'question_bank_id',
    scopes: 'question-banks',
    present: presentBankV1,
    list: { call: (s) => s.listBanks, handler: 'list', cap },
    ...objectOps('Bank', QuestionBankRequest, QuestionBankRequest, PatchedQuestionBankRequest),
  }),
  parentQuestions((s) => s.bankQuestions, ':question_bank_id/questions', 'question-banks'),
)
export class QuestionBanksV1Controller extends OverQuizzesV1 {}
