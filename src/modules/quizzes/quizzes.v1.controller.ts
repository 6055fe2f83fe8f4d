import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Put, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Auth, Scopes } from '../../core/auth/decorators';
import type { Principal } from '../../core/auth/principal';
import { V1 } from '../../core/http/interfaces';
import { Paged, V1_PAGE_CAP, V1Page } from '../../core/pagination/v1-page';
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
import { QuizzesV1Service } from './quizzes.v1.service';

/** /v1/quizzes with its question banks and questions (quizzes:read / quizzes:write); lists of up to 1000 (the default). */
@V1()
@ApiTags('v1 quizzes')
@Controller('v1/quizzes')
export class QuizzesV1Controller {
  constructor(private readonly quizzes: QuizzesV1Service) {}

  @Get()
  @Scopes('quizzes:read')
  async list(@Auth() p: Principal, @Query() q: QuizListQuery, @Paged(V1_PAGE_CAP.large) page: V1Page) {
    // an empty filter value filters nothing (as django-filter does)
    const { rows, count } = await this.quizzes.listQuizzes(p, q.name || undefined, page);
    return page.list(rows.map(presentQuizV1), count);
  }

  @Post()
  @Scopes('quizzes:write')
  async create(@Auth() p: Principal, @Body() body: QuizRequest) {
    return presentQuizV1(await this.quizzes.createQuiz(p, body));
  }

  @Get(':quiz_id')
  @Scopes('quizzes:read')
  async read(@Auth() p: Principal, @Param('quiz_id') id: string) {
    return presentQuizV1(await this.quizzes.readQuiz(p, id));
  }

  @Put(':quiz_id')
  @Scopes('quizzes:write')
  async update(@Auth() p: Principal, @Param('quiz_id') id: string, @Body() body: QuizRequest) {
    return presentQuizV1(await this.quizzes.updateQuiz(p, id, body));
  }

  @Patch(':quiz_id')
  @Scopes('quizzes:write')
  async partialUpdate(@Auth() p: Principal, @Param('quiz_id') id: string, @Body() body: PatchedQuizRequest) {
    return presentQuizV1(await this.quizzes.updateQuiz(p, id, body));
  }

  @Delete(':quiz_id')
  @HttpCode(204)
  @Scopes('quizzes:write')
  async remove(@Auth() p: Principal, @Param('quiz_id') id: string) {
    await this.quizzes.deleteQuiz(p, id);
  }

  @Get(':quiz_id/question-banks')
  @Scopes('quizzes:read')
  async banks(@Auth() p: Principal, @Param('quiz_id') id: string, @Paged(V1_PAGE_CAP.large) page: V1Page) {
    const { rows, count } = await this.quizzes.quizBanks(p, id, page);
    return page.list(rows.map(presentAssignmentV1), count);
  }

  @Get(':quiz_id/question-banks/:question_bank_id')
  @Scopes('quizzes:read')
  async bank(@Auth() p: Principal, @Param('quiz_id') id: string, @Param('question_bank_id') bankId: string) {
    return presentAssignmentV1(await this.quizzes.quizBank(p, id, bankId));
  }

  @Get(':quiz_id/questions')
  @Scopes('quizzes:read')
  async questions(@Auth() p: Principal, @Param('quiz_id') id: string, @Paged(V1_PAGE_CAP.large) page: V1Page) {
    const { rows, count } = await this.quizzes.quizQuestions(p, id, page);
    return page.list(rows.map(presentQuestionSummaryV1), count);
  }

  @Get(':quiz_id/questions/:question_id')
  @Scopes('quizzes:read')
  async question(@Auth() p: Principal, @Param('quiz_id') id: string, @Param('question_id') questionId: string) {
    return presentQuestionSummaryV1(await this.quizzes.quizQuestion(p, id, questionId));
  }

  @Delete(':quiz_id/questions/:question_id')
  @HttpCode(204)
  @Scopes('quizzes:write')
  async removeQuestion(@Auth() p: Principal, @Param('quiz_id') id: string, @Param('question_id') questionId: string) {
    await this.quizzes.deleteQuizQuestion(p, id, questionId);
  }
}

/** /v1/quiz-questions: a question of a quiz or of a question bank (quizzes or question-banks scopes). */
@V1()
@ApiTags('v1 quiz questions')
@Controller('v1/quiz-questions')
export class QuizQuestionsV1Controller {
  constructor(private readonly quizzes: QuizzesV1Service) {}

  @Post()
  @Scopes('quizzes:write', 'question-banks:write')
  async create(@Auth() p: Principal, @Body() body: QuestionRequest) {
    return presentQuestionV1(await this.quizzes.createQuestion(p, body));
  }

  @Get(':question_id')
  @Scopes('quizzes:read', 'question-banks:read')
  async read(@Auth() p: Principal, @Param('question_id') id: string) {
    return presentQuestionV1(await this.quizzes.readQuestion(p, id));
  }

  @Put(':question_id')
  @Scopes('quizzes:write', 'question-banks:write')
  async update(@Auth() p: Principal, @Param('question_id') id: string, @Body() body: QuestionUpdateRequest) {
    return presentQuestionV1(await this.quizzes.updateQuestion(p, id, body));
  }

  @Patch(':question_id')
  @Scopes('quizzes:write', 'question-banks:write')
  async partialUpdate(@Auth() p: Principal, @Param('question_id') id: string, @Body() body: PatchedQuestionUpdateRequest) {
    return presentQuestionV1(await this.quizzes.updateQuestion(p, id, body));
  }

  @Delete(':question_id')
  @HttpCode(204)
  @Scopes('quizzes:write', 'question-banks:write')
  async remove(@Auth() p: Principal, @Param('question_id') id: string) {
    await this.quizzes.deleteQuestion(p, id);
  }
}

/** /v1/question-banks with their questions (question-banks:read / question-banks:write); lists of up to 1000 (the default). */
@V1()
@ApiTags('v1 question banks')
@Controller('v1/question-banks')
export class QuestionBanksV1Controller {
  constructor(private readonly quizzes: QuizzesV1Service) {}

  @Get()
  @Scopes('question-banks:read')
  async list(@Auth() p: Principal, @Paged(V1_PAGE_CAP.large) page: V1Page) {
    const { rows, count } = await this.quizzes.listBanks(p, page);
    return page.list(rows.map(presentBankV1), count);
  }

  @Post()
  @Scopes('question-banks:write')
  async create(@Auth() p: Principal, @Body() body: QuestionBankRequest) {
    return presentBankV1(await this.quizzes.createBank(p, body));
  }

  @Get(':question_bank_id')
  @Scopes('question-banks:read')
  async read(@Auth() p: Principal, @Param('question_bank_id') id: string) {
    return presentBankV1(await this.quizzes.readBank(p, id));
  }

  @Put(':question_bank_id')
  @Scopes('question-banks:write')
  async update(@Auth() p: Principal, @Param('question_bank_id') id: string, @Body() body: QuestionBankRequest) {
    return presentBankV1(await this.quizzes.updateBank(p, id, body));
  }

  @Patch(':question_bank_id')
  @Scopes('question-banks:write')
  async partialUpdate(@Auth() p: Principal, @Param('question_bank_id') id: string, @Body() body: PatchedQuestionBankRequest) {
    return presentBankV1(await this.quizzes.updateBank(p, id, body));
  }

  @Delete(':question_bank_id')
  @HttpCode(204)
  @Scopes('question-banks:write')
  async remove(@Auth() p: Principal, @Param('question_bank_id') id: string) {
    await this.quizzes.deleteBank(p, id);
  }

  @Get(':question_bank_id/questions')
  @Scopes('question-banks:read')
  async questions(@Auth() p: Principal, @Param('question_bank_id') id: string, @Paged(V1_PAGE_CAP.large) page: V1Page) {
    const { rows, count } = await this.quizzes.bankQuestions(p, id, page);
    return page.list(rows.map(presentQuestionSummaryV1), count);
  }

  @Get(':question_bank_id/questions/:question_id')
  @Scopes('question-banks:read')
  async question(@Auth() p: Principal, @Param('question_bank_id') id: string, @Param('question_id') questionId: string) {
    return presentQuestionSummaryV1(await this.quizzes.bankQuestion(p, id, questionId));
  }

  @Delete(':question_bank_id/questions/:question_id')
  @HttpCode(204)
  @Scopes('question-banks:write')
  async removeQuestion(@Auth() p: Principal, @Param('question_bank_id') id: string, @Param('question_id') questionId: string) {
    await this.quizzes.deleteBankQuestion(p, id, questionId);
  }
}
