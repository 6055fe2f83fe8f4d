import { Body, Controller, Delete, Get, Param, Patch, Post, Query, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Auth, Scopes } from '../../core/auth/decorators';
import type { Principal } from '../../core/auth/principal';
import { BatchSpec, presentResults, runBatch } from '../../core/batch/batch';
import { AppConfig } from '../../core/config/config';
import { BaseUrl, requestBaseUrl } from '../../core/http/base-url';
import { V2 } from '../../core/http/interfaces';
import { batchBodySchema } from '../../core/http/request-schemas';
import { replyBatch, V2Batches } from '../../core/routes/v2-batch';
import { CursorPaged, V2Page } from '../../core/pagination/cursor-page';
import { dateTimeParam, filterParam } from '../../core/http/query-params';
import { decodeId } from '../../core/ids/ids';
import {
  AssignmentBindItem,
  AssignmentUnbindItem,
  AssignmentUpdateItem,
  BankCreateItem,
  BankUpdateItem,
  IdItem,
  QuestionCreateItem,
  QuestionUpdateItem,
  QuizCreateItem,
  QuizUpdateItem,
} from './dto/quiz.v2.dto';
import { presentAssignmentV2, presentBankV2, presentQuestionV2, presentQuizV2 } from './quizzes.presenter';
import { QuizzesService } from './quizzes.service';
import { KindBatches, QuizzesV2Service } from './quizzes.v2.service';
import type { AssignmentRow, QuestionBankRow, QuestionRow, QuizRow } from './quiz-model';
import { serviceIn } from '../../core/http/service-ref';

const idKey = (raw: Record<string, any>) => (typeof raw?.id === 'string' ? raw.id : undefined);
/** Creates first-wins on the name (case-insensitive, trimmed, as filter[name] matches). */
const nameKey = (raw: Record<string, any>) => {
  const name = raw?.attributes?.name;
  return typeof name === 'string' && name.trim() ? name.trim().toLowerCase() : undefined;
};
const bankKey = (raw: Record<string, any>) => {
  const id = raw?.attributes?.question_bank_id;
  return typeof id === 'string' ? id : undefined;
};
/** `filter[updated_since]` of the /v2 lists of this module (docs/decisions/data-out.md). */
const UPDATED_SINCE_QUERY = { name: 'filter[updated_since]', required: false, schema: { type: 'string' as const, format: 'date-time' } };
const listQueries = [
  ApiQuery({ name: 'filter[name]', required: false, schema: { type: 'string' } }),
  ApiQuery(UPDATED_SINCE_QUERY),
  ApiQuery({ name: 'page[size]', required: false, schema: { type: 'integer', minimum: 1, maximum: 100, default: 25 } }),
  ApiQuery({ name: 'page[cursor]', required: false, schema: { type: 'string' } }),
];
const ListQueries = (): MethodDecorator => (t, k, d) => {
  for (const q of listQueries) q(t, k, d);
};
/** The filters of the quiz and question-bank lists. */
const listFilters = (query: Record<string, unknown>) => {
  const updatedSince = dateTimeParam(query, 'filter[updated_since]', true);
  // an over-long name matches nothing (the empty page), after the date is checked
  return { name: filterParam(query, 'filter[name]', 500), updatedSince };
};

/** /v2/quizzes/ (quizzes:read / quizzes:write). */
@ApiTags('quizzes')
@ApiBearerAuth('JWTAuth')
@V2()
@V2Batches<KindBatches<QuizRow>>({
  service: serviceIn(QuizzesV2Service, (x) => x.quizzes),
  type: 'quizzes',
  scopes: 'quizzes',
  create: {
    call: (s) => s.create,
    present: presentQuizV2,
    item: QuizCreateItem,
    dedupeKey: nameKey,
    dedupePointer: '/attributes/name',
    doc: { description: 'Batch of quiz items (first wins on the name)', items: '_QuizCreateData' },
  },
  update: { call: (s) => s.update, present: presentQuizV2, item: QuizUpdateItem, doc: { description: 'Batch of quiz update items (repeated ids: last write wins)', items: '_QuizBatchUpdateData' } },
  remove: { call: (s) => s.remove, item: IdItem, dedupeKey: idKey, dedupePointer: '/id', doc: { description: 'Batch of quiz ids (first wins)', items: '_QuizDeleteData' } },
})
@Controller('v2/quizzes')
export class QuizzesV2Controller {
  constructor(
    readonly v2: QuizzesV2Service,
    readonly model: QuizzesService,
    readonly config: AppConfig,
  ) {}

  @Get()
  @Scopes('quizzes:read')
  @ListQueries()
  async list(@Auth() p: Principal, @Query() query: Record<string, unknown>, @CursorPaged('quizzes', { document: false }) page: V2Page) {
    const f = listFilters(query);
    const rows = await this.model.quizzes.list(p, page, f);
    const present = (q: QuizRow) => presentQuizV2(q, page.baseUrl);
    // filter[updated_since]: ordered by last change, the cursor at (updated_at, id)
    return f.updatedSince ? page.documentAt(rows, present, (q) => ({ t: q.updated_at.toISOString(), id: q.id })) : page.document(rows, present);
  }

  @Get(':id')
  @Scopes('quizzes:read')
  async get(@Auth() p: Principal, @Param('id') id: string, @BaseUrl() base: string) {
    return { data: presentQuizV2(await this.model.quizzes.get(p, id), base) };
  }
}

/** /v2/quizzes/{quiz_id}/question-banks/: a quiz's question-bank assignments (the quiz first: 404 whatever the body). */
@ApiTags('quizzes')
@ApiBearerAuth('JWTAuth')
@V2()
@Controller('v2/quizzes/:quiz_id/question-banks')
export class QuizBanksV2Controller {
  constructor(
    private readonly v2: QuizzesV2Service,
    private readonly config: AppConfig,
  ) {}

  @Get()
  @Scopes('quizzes:read')
  @ApiQuery(UPDATED_SINCE_QUERY)
  async list(@Auth() p: Principal, @Param('quiz_id') quizId: string, @Query() query: Record<string, unknown>) {
    return { data: (await this.v2.listAssignments(p, quizId, dateTimeParam(query, 'filter[updated_since]', true))).map(presentAssignmentV2) };
  }

  @Post()
  @Scopes('quizzes:write')
  @ApiBody({ schema: batchBodySchema(AssignmentBindItem, 'question-bank-assignments', 'items as _QuestionBankAssignmentBindData') })
  async bind(@Auth() p: Principal, @Param('quiz_id') quizId: string, @Body() body: unknown, @Res({ passthrough: true }) reply: FastifyReply) {
    const quiz = await this.v2.requireQuiz(p, quizId);
    return this.run(reply, body, AssignmentBindItem, async (items) => presentResults(await this.v2.bind(p, quiz, items), (r) => presentAssignmentV2(r as AssignmentRow)));
  }

  @Patch()
  @Scopes('quizzes:write')
  @ApiBody({ schema: batchBodySchema(AssignmentUpdateItem, 'question-bank-assignments', 'items as _QuestionBankAssignmentBatchUpdateData') })
  async update(@Auth() p: Principal, @Param('quiz_id') quizId: string, @Body() body: unknown, @Res({ passthrough: true }) reply: FastifyReply) {
    const quiz = await this.v2.requireQuiz(p, quizId);
    return this.run(reply, body, AssignmentUpdateItem, async (items) => presentResults(await this.v2.update(p, quiz, items), (r) => presentAssignmentV2(r as AssignmentRow)));
  }

  @Delete()
  @Scopes('quizzes:write')
  @ApiBody({ schema: batchBodySchema(AssignmentUnbindItem, 'question-bank-assignments', 'items as _QuestionBankAssignmentDeleteData') })
  async unbind(@Auth() p: Principal, @Param('quiz_id') quizId: string, @Body() body: unknown, @Res({ passthrough: true }) reply: FastifyReply) {
    const quiz = await this.v2.requireQuiz(p, quizId);
    return this.run(reply, body, AssignmentUnbindItem, (items) => this.v2.unbind(p, quiz, items));
  }

  /** Every assignment batch is first-wins on question_bank_id. */
  private async run<T>(reply: FastifyReply, body: unknown, itemClass: BatchSpec<T>['itemClass'], handler: Parameters<typeof runBatch<T, unknown>>[2]) {
    const spec: BatchSpec<T> = { itemClass, type: 'question-bank-assignments', dedupeKey: bankKey, dedupePointer: '/attributes/question_bank_id', maxItems: this.config.BATCH_MAX_ITEMS };
    return replyBatch(reply, body, spec, handler);
  }
}

/** /v2/question-banks/ (question-banks:read / question-banks:write). */
@ApiTags('question banks')
@ApiBearerAuth('JWTAuth')
@V2()
@V2Batches<KindBatches<QuestionBankRow>>({
  service: serviceIn(QuizzesV2Service, (x) => x.banks),
  type: 'question-banks',
  scopes: 'question-banks',
  create: {
    call: (s) => s.create,
    present: presentBankV2,
    item: BankCreateItem,
    dedupeKey: nameKey,
    dedupePointer: '/attributes/name',
    doc: { description: 'Batch of question-bank items (first wins on the name)', items: '_QuestionBankCreateData' },
  },
  update: {
    call: (s) => s.update,
    present: presentBankV2,
    item: BankUpdateItem,
    doc: { description: 'Batch of question-bank update items (repeated ids: last write wins)', items: '_QuestionBankBatchUpdateData' },
  },
  remove: { call: (s) => s.remove, item: IdItem, dedupeKey: idKey, dedupePointer: '/id', doc: { description: 'Batch of question-bank ids (first wins)', items: '_QuestionBankDeleteData' } },
})
@Controller('v2/question-banks')
export class QuestionBanksV2Controller {
  constructor(
    readonly v2: QuizzesV2Service,
    readonly model: QuizzesService,
    readonly config: AppConfig,
  ) {}

  @Get()
  @Scopes('question-banks:read')
  @ListQueries()
  async list(@Auth() p: Principal, @Query() query: Record<string, unknown>, @CursorPaged('question-banks', { document: false }) page: V2Page) {
    const f = listFilters(query);
    const rows = await this.model.banks.list(p, page, f);
    const present = (b: QuestionBankRow) => presentBankV2(b, page.baseUrl);
    // filter[updated_since]: ordered by last change, the cursor at (updated_at, id)
    return f.updatedSince ? page.documentAt(rows, present, (b) => ({ t: b.updated_at.toISOString(), id: b.id })) : page.document(rows, present);
  }

  @Get(':id')
  @Scopes('question-banks:read')
  async get(@Auth() p: Principal, @Param('id') id: string, @BaseUrl() base: string) {
    return { data: presentBankV2(await this.model.banks.get(p, id), base) };
  }
}

const batchBody = (itemClass: Function, items: string) => ApiBody({ schema: batchBodySchema(itemClass, 'questions', `items as ${items}`) });

/** /v2/questions/ (question-banks or quizzes scopes: a question lives under a quiz or a bank). */
@ApiTags('questions')
@ApiBearerAuth('JWTAuth')
@V2()
@Controller('v2/questions')
export class QuestionsV2Controller {
  constructor(
    private readonly v2: QuizzesV2Service,
    private readonly model: QuizzesService,
    private readonly config: AppConfig,
  ) {}

  @Get()
  @Scopes('question-banks:read', 'quizzes:read')
  @ApiQuery({ name: 'filter[quiz_id]', required: false, schema: { type: 'string' } })
  @ApiQuery({ name: 'filter[question_bank_id]', required: false, schema: { type: 'string' } })
  @ApiQuery(UPDATED_SINCE_QUERY)
  async list(@Auth() p: Principal, @Query() query: Record<string, unknown>, @CursorPaged('questions') page: V2Page) {
    const updatedSince = dateTimeParam(query, 'filter[updated_since]', true);
    const quiz = filterParam(query, 'filter[quiz_id]', 1000);
    const bank = filterParam(query, 'filter[question_bank_id]', 1000);
    const rows = await this.model.listQuestionsV2(p, page, {
      quizId: quiz === undefined ? undefined : decodeId('quiz', quiz),
      bankId: bank === undefined ? undefined : decodeId('questionBank', bank),
      updatedSince,
    });
    const present = (x: QuestionRow) => presentQuestionV2(x, page.baseUrl);
    // filter[updated_since]: ordered by last change, the cursor at (updated_at, id)
    return updatedSince ? page.documentAt(rows, present, (x) => ({ t: x.updated_at.toISOString(), id: x.id })) : page.document(rows, present);
  }

  @Get(':id')
  @Scopes('question-banks:read', 'quizzes:read')
  async get(@Auth() p: Principal, @Param('id') id: string, @BaseUrl() base: string) {
    return { data: presentQuestionV2(await this.model.getQuestion(p, id), base) };
  }

  @Post()
  @Scopes('question-banks:write', 'quizzes:write')
  @batchBody(QuestionCreateItem, '_QuestionCreateData')
  create(@Auth() p: Principal, @Body() body: unknown, @Req() req: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    // no natural key: every item is created (docs/decisions/quizzes.md)
    return this.run(reply, body, { itemClass: QuestionCreateItem, type: 'questions', maxItems: this.config.BATCH_MAX_ITEMS }, async (items) =>
      presentResults(await this.v2.createQuestions(p, items), (r) => presentQuestionV2(r, requestBaseUrl(this.config, req))),
    );
  }

  @Patch()
  @Scopes('question-banks:write', 'quizzes:write')
  @batchBody(QuestionUpdateItem, '_QuestionBatchUpdateData')
  update(@Auth() p: Principal, @Body() body: unknown, @Req() req: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return this.run(reply, body, { itemClass: QuestionUpdateItem, type: 'questions', maxItems: this.config.BATCH_MAX_ITEMS }, async (items) =>
      presentResults(await this.v2.updateQuestions(p, items), (r) => presentQuestionV2(r, requestBaseUrl(this.config, req))),
    );
  }

  @Delete()
  @Scopes('question-banks:write', 'quizzes:write')
  @batchBody(IdItem, '_QuestionDeleteData')
  remove(@Auth() p: Principal, @Body() body: unknown, @Res({ passthrough: true }) reply: FastifyReply) {
    return this.run(reply, body, { itemClass: IdItem, type: 'questions', dedupeKey: idKey, dedupePointer: '/id', maxItems: this.config.BATCH_MAX_ITEMS }, (items) => this.v2.deleteQuestions(p, items));
  }

  private async run<T>(reply: FastifyReply, body: unknown, spec: BatchSpec<T>, handler: Parameters<typeof runBatch<T, unknown>>[2]) {
    return replyBatch(reply, body, spec, handler);
  }
}
