import { NoBody } from '../../core/openapi/no-body';
import { dateTimeParam } from '../../core/http/query-params';
import { isoOf, type Timestamp } from '../../core/database/pool-reads';
import { applyDecorators, Body, Controller, Delete, Headers, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiHeader, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AuthService } from '../../core/auth/auth.service';
import { Auth, Scopes } from '../../core/auth/decorators';
import type { Principal } from '../../core/auth/principal';
import { RateLimit } from '../../core/auth/rate-limit';
import { presentResults, type BatchSpec } from '../../core/batch/batch';
import { AppConfig } from '../../core/config/config';
import { ValidationFailed } from '../../core/http/api-error';
import { CursorPaged, V2Page, v2PageOf } from '../../core/pagination/cursor-page';
import { SetPasswordRequestEnvelope } from './dto/set-password.dto';
import { quickCreateItem, quickUpdateItem, StudentCreateItem, StudentCreateRequestEnvelope, StudentUpdateItem, StudentUpdateRequestEnvelope } from './dto/student-batch.dto';
import { PasswordResetQuery, StudentListQuery } from './dto/student-query.dto';
import { presentStudent, presentStudentResource, StudentRow, studentRowJson, studentRowPosition } from './students.presenter';
import { StudentsBatchService } from './students.batch.service';
import { StudentsService } from './students.service';
import { V2 } from '../../core/http/interfaces';
import { replyBatch } from '../../core/routes/v2-batch';
import { ScopedRoutes } from '../../core/routes/scoped-routes';
import { FastPath, FastRead } from '../../core/routes/fast-path';

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
  quickItem: quickCreateItem,
  dedupeKey: (raw: Record<string, any>) => (typeof raw.attributes?.email === 'string' ? raw.attributes.email.toLowerCase() : undefined),
  dedupePointer: '/attributes/email',
};
/** Updates: repeats of an id are pre-marked; two items reaching the same student otherwise (id and email) are caught by the service. */
const UPDATES = {
  itemClass: StudentUpdateItem,
  quickItem: quickUpdateItem,
  dedupeKey: (raw: Record<string, any>) => (typeof raw.id === 'string' ? `id:${raw.id}` : undefined),
  dedupePointer: '/id',
};

const route = ScopedRoutes('students');

/** The Content-Type Fastify gives a serialized object. */
const JSON_TYPE = 'application/json; charset=utf-8';

/** A page of list rows as its JSON:API document, JSON text (the same bytes as the document of presented students). */
function listJson(page: V2Page, rows: StudentRow[]): string {
  return page.documentJson(rows, studentRowJson, studentRowPosition);
}

@ApiTags('students')
@ApiBearerAuth('JWTAuth')
@V2()
@Controller('v2/students')
export class StudentsV2Controller {
  constructor(
    private readonly students: StudentsService,
    private readonly batch: StudentsBatchService,
    private readonly config: AppConfig,
    private readonly auth: AuthService,
  ) {}

  /** The list document as JSON text (listJson), with the media type Fastify gives a serialized object (the /v2 one is set on send). */
  @route.get()
  @FastPath('cachedList')
  async list(@Auth() p: Principal, @Query() query: StudentListQuery, @CursorPaged('students', { document: false }) page: V2Page, @Res({ passthrough: true }) reply: FastifyReply): Promise<string> {
    const updatedSince = dateTimeParam(query as Record<string, unknown>, 'filter[updated_since]', true);
    const rows = await this.students.list(p, query, page, updatedSince);
    const json = updatedSince ? page.documentJson(rows, studentRowJson, (r) => ({ t: isoOf((r as StudentRow & { updated_at: Timestamp }).updated_at), id: r.id })) : listJson(page, rows);
    reply.header('Content-Type', JSON_TYPE);
    return json;
  }

  /**
   * The list's fast path (core/routes/fast-path.ts): a caller whose Bearer token is cached as valid,
   * with students:read, asking for a page with nothing but `page[size]` / `page[cursor]` (each
   * once, valid), gets the same document here without Nest's pipeline. Anything else goes to the
   * global guard and list() above untouched, and so does a page whose statement fails (the handler
   * then reads it again and answers the error): every error comes from the handler.
   */
  cachedList(req: FastifyRequest & { principal?: unknown }, reply: FastifyReply, done: () => void): void {
    const principal = this.auth.cachedBearerPrincipal(req.headers.authorization);
    if (!principal?.scopes.has('students:read')) return done();
    const query = req.query as Record<string, unknown>;
    for (const k in query) if ((k !== 'page[size]' && k !== 'page[cursor]') || typeof query[k] !== 'string') return done();
    let page: V2Page;
    try {
      page = v2PageOf(this.config, req, 'students');
    } catch {
      return done();
    }
    this.students
      .list(principal, {}, page)
      .then((rows) => listJson(page, rows))
      .then(
        (json) => {
          req.principal = principal;
          reply.header('Content-Type', JSON_TYPE).send(json);
        },
        () => done(),
      );
  }

  @route.post()
  @ApiBody({ type: StudentCreateRequestEnvelope })
  async create(@Auth() p: Principal, @Body() body: unknown, @Res({ passthrough: true }) reply: FastifyReply) {
    return replyBatch(reply, body, this.batchOf(CREATES), async (items) => presentResults(await this.batch.createMany(p, items), presentStudentResource));
  }

  @route.patch()
  @ApiBody({ type: StudentUpdateRequestEnvelope })
  async update(@Auth() p: Principal, @Body() body: unknown, @Res({ passthrough: true }) reply: FastifyReply) {
    return replyBatch(reply, body, this.batchOf(UPDATES), async (items) => presentResults(await this.batch.updateMany(p, items), presentStudentResource));
  }

  @route.get(':id')
  @FastRead<StudentsV2Controller>((c, { principal, params }) => c.get(principal, params.id))
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
      throw new ValidationFailed([{ parameter: 'X-Confirm-Destructive', field: 'X-Confirm-Destructive', message: 'header must be "true": anonymization erases personal data for good' }]);
    }
    await this.students.anonymize(p, id);
  }

  @Post(':id/send-password-reset')
  @HttpCode(202)
  @NoBody(202, 'The reset mail is queued (no body)')
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
