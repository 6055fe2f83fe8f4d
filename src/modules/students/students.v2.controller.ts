import { applyDecorators, Body, Controller, Delete, Headers, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiHeader, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Auth, Scopes } from '../../core/auth/decorators';
import type { Principal } from '../../core/auth/principal';
import { RateLimit } from '../../core/auth/rate-limit';
import type { BatchSpec } from '../../core/batch/batch';
import { AppConfig } from '../../core/config/config';
import { ValidationFailed } from '../../core/http/api-error';
import { CursorPaged, V2Page } from '../../core/pagination/cursor-page';
import { SetPasswordRequestEnvelope } from './dto/set-password.dto';
import { StudentCreateItem, StudentCreateRequestEnvelope, StudentUpdateItem, StudentUpdateRequestEnvelope } from './dto/student-batch.dto';
import { PasswordResetQuery, StudentListQuery } from './dto/student-query.dto';
import { presentStudent } from './students.presenter';
import { StudentsBatchService } from './students.batch.service';
import { StudentsService } from './students.service';
import { V2 } from '../../core/http/interfaces';
import { replyBatch } from '../../core/http/v2-batch';
import { ScopedRoutes } from '../../core/http/scoped-routes';

/**
 * Deactivation and anonymization: DESTRUCTIVE_RATE_LIMIT calls per DESTRUCTIVE_RATE_WINDOW_SECONDS
 * per client and DESTRUCTIVE_ORG_RATE_LIMIT per organization, in Redis; each operation has its own
 * budget, shared by /v1 and /v2 anonymize.
 */
export const DestructiveRateLimit = (operation: 'deactivate' | 'anonymize') =>
  RateLimit({ operation: `students:${operation}`, limit: 'DESTRUCTIVE_RATE_LIMIT', window: 'DESTRUCTIVE_RATE_WINDOW_SECONDS', organizationLimit: 'DESTRUCTIVE_ORG_RATE_LIMIT' });

/** A destructive operation: its own scope (`students:<operation>`) and its rate-limit budget. */
export const Destructive = (operation: 'deactivate' | 'anonymize') => applyDecorators(Scopes(`students:${operation}`), DestructiveRateLimit(operation));

/** Creates: first wins on the e-mail (case-insensitive). */
const CREATES = {
  itemClass: StudentCreateItem,
  dedupeKey: (raw: Record<string, any>) => (typeof raw.attributes?.email === 'string' ? raw.attributes.email.toLowerCase() : undefined),
  dedupePointer: '/attributes/email',
};
/** Updates: repeats of an id are pre-marked; two items reaching the same student otherwise (id and email) are caught by the service. */
const UPDATES = {
  itemClass: StudentUpdateItem,
  dedupeKey: (raw: Record<string, any>) => (typeof raw.id === 'string' ? `id:${raw.id}` : undefined),
  dedupePointer: '/id',
};

const route = ScopedRoutes('students');

@ApiTags('students')
@ApiBearerAuth('JWTAuth')
@V2()
@Controller('v2/students')
export class StudentsV2Controller {
  constructor(
    private readonly students: StudentsService,
    private readonly batch: StudentsBatchService,
    private readonly config: AppConfig,
  ) {}

  @route.get()
  async list(@Auth() p: Principal, @Query() query: StudentListQuery, @CursorPaged('students', { document: false }) page: V2Page) {
    return page.document(await this.students.list(p, query, page), presentStudent);
  }

  @route.post()
  @ApiBody({ type: StudentCreateRequestEnvelope })
  async create(@Auth() p: Principal, @Body() body: unknown, @Res({ passthrough: true }) reply: FastifyReply) {
    return replyBatch(reply, body, this.batchOf(CREATES), (items) => this.batch.createMany(p, items));
  }

  @route.patch()
  @ApiBody({ type: StudentUpdateRequestEnvelope })
  async update(@Auth() p: Principal, @Body() body: unknown, @Res({ passthrough: true }) reply: FastifyReply) {
    return replyBatch(reply, body, this.batchOf(UPDATES), (items) => this.batch.updateMany(p, items));
  }

  @route.get(':id')
  async get(@Auth() p: Principal, @Param('id') id: string) {
    return { data: presentStudent(await this.students.get(p, id)) };
  }

  @Delete(':id')
  @HttpCode(204)
  @Destructive('deactivate')
  async deactivate(@Auth() p: Principal, @Param('id') id: string) {
    await this.students.deactivate(p, id);
  }

  @Post(':id/anonymize')
  @HttpCode(204)
  @Destructive('anonymize')
  @ApiHeader({ name: 'X-Confirm-Destructive', required: true, description: 'must be "true"' })
  async anonymize(@Auth() p: Principal, @Param('id') id: string, @Headers('x-confirm-destructive') confirm: unknown) {
    // checked before anything is looked up or changed
    if (typeof confirm !== 'string' || confirm.trim().toLowerCase() !== 'true') {
      throw new ValidationFailed([
        { parameter: 'X-Confirm-Destructive', field: 'X-Confirm-Destructive', message: 'header must be "true": anonymization erases personal data for good' },
      ]);
    }
    await this.students.anonymize(p, id);
  }

  @Post(':id/send-password-reset')
  @HttpCode(202)
  @Scopes('students:manage-password')
  async sendPasswordReset(@Auth() p: Principal, @Param('id') id: string, @Query() query: PasswordResetQuery) {
    await this.students.sendPasswordReset(p, id, query.domain);
  }

  @Post(':id/set-password')
  @HttpCode(204)
  @Scopes('students:manage-password')
  async setPassword(@Auth() p: Principal, @Param('id') id: string, @Body() body: SetPasswordRequestEnvelope) {
    await this.students.setPassword(p, id, body.data.attributes.password);
  }

  /** A students batch of at most BATCH_MAX_ITEMS items. */
  private batchOf<T>(rule: Omit<BatchSpec<T>, 'type' | 'maxItems'>): BatchSpec<T> {
    return { ...rule, type: 'students', maxItems: this.config.BATCH_MAX_ITEMS };
  }
}
