import { Body, Controller, Get, Param, Post, Query, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Auth, Scopes } from '../../core/auth/decorators';
import type { Principal } from '../../core/auth/principal';
import { batchItems } from '../../core/batch/batch';
import { AppConfig } from '../../core/config/config';
import { ValidationFailed } from '../../core/http/api-error';
import { V2 } from '../../core/http/interfaces';
import { replyBatch, V2Batches } from '../../core/routes/v2-batch';
import { batchBodySchema, JsonSchema } from '../../core/http/request-schemas';
import { decodeId } from '../../core/ids/ids';
import { CursorPaged, V2Page } from '../../core/pagination/cursor-page';
import { dateTimeParam, filterParam, listParam } from '../../core/http/query-params';
import { isoOf } from '../../core/database/pool-reads';
import { SignupFieldValueItemV2 } from './dto/signup-field-value.v2.dto';
import { presentSignupFieldValueV2, SignupFieldValueFiltersV2, SignupFieldValuesV2Service } from './signup-field-values.v2.service';

const idKey = (raw: Record<string, any>) => (typeof raw.id === 'string' ? raw.id : undefined);

/**
 * /v2/signup-field-values: create (POST, top-level student_id, items keyed by signup-field id,
 * upserting), update (PATCH, items keyed by value id), list (filter[student.id],
 * filter[signup-field.id], filter[domains], filter[updated_since]) and read by signup_field_value_id. Scopes
 * signup-fields:read / signup-fields:write. Repeated ids in a batch are duplicate_in_batch.
 */
/** SignupFieldValueCreateRequestEnvelope: the batch envelope with the top-level student_id. */
const withStudentId = (s: JsonSchema): JsonSchema => ({ ...s, required: ['student_id', 'data'], properties: { student_id: { type: 'string' }, ...s.properties } });

@ApiTags('signup-field-values')
@ApiBearerAuth('JWTAuth')
@V2()
@V2Batches<SignupFieldValuesV2Service>({
  service: SignupFieldValuesV2Service,
  type: 'signup-field-values',
  scopes: 'signup-fields',
  update: {
    call: (s) => s.updateMany,
    item: SignupFieldValueItemV2,
    dedupeKey: idKey,
    dedupePointer: '/id',
    doc: { description: 'Values to change, each addressed by its signup-field-value id', items: '_SignupFieldValueUpdateData' },
  },
})
@Controller('v2/signup-field-values')
export class SignupFieldValuesV2Controller {
  constructor(
    readonly values: SignupFieldValuesV2Service,
    readonly config: AppConfig,
  ) {}

  /** Envelope first (400), then student_id (422 when not a string, 404 when not a member of any domain), then the items. */
  @Post()
  @Scopes('signup-fields:write')
  @ApiBody({
    description: 'student_id and items keyed by signup-field id (SignupFieldValueCreateRequestEnvelope)',
    schema: withStudentId(batchBodySchema(SignupFieldValueItemV2, 'signup-field-values', "items as _SignupFieldValueCreateData: id is the signup field's id")),
  })
  async create(@Auth() p: Principal, @Body() body: unknown, @Res({ passthrough: true }) reply: FastifyReply) {
    batchItems(body, this.config.BATCH_MAX_ITEMS);
    const studentId = (body as Record<string, unknown>).student_id;
    if (typeof studentId !== 'string') {
      throw new ValidationFailed([{ pointer: '/student_id', field: 'student_id', message: studentId === undefined ? 'is required' : 'must be a string' }]);
    }
    const userId = await this.values.student(p, studentId);
    return replyBatch(reply, body, { itemClass: SignupFieldValueItemV2, type: 'signup-field-values', maxItems: this.config.BATCH_MAX_ITEMS, dedupeKey: idKey, dedupePointer: '/id' }, (items) =>
      this.values.createMany(p, userId, items),
    );
  }

  @Get()
  @Scopes('signup-fields:read')
  @ApiQuery({ name: 'filter[student.id]', required: false, schema: { type: 'string' } })
  @ApiQuery({ name: 'filter[signup-field.id]', required: false, schema: { type: 'string' } })
  @ApiQuery({ name: 'filter[domains]', required: false, schema: { type: 'string' }, description: 'Comma-separated domain names; unknown names match nothing.' })
  @ApiQuery({
    name: 'filter[updated_since]',
    required: false,
    schema: { type: 'string', format: 'date-time' },
    description: 'changed at or after (RFC 3339 with an offset); the list is then ordered by last change',
  })
  async list(@Auth() p: Principal, @Query() query: Record<string, unknown>, @CursorPaged('signup-field-values') page: V2Page) {
    const f: SignupFieldValueFiltersV2 = { updatedSince: dateTimeParam(query, 'filter[updated_since]', true) };
    let none = false;
    const domains = listParam(query, 'filter[domains]');
    const student = filterParam(query, 'filter[student.id]', 64);
    const field = filterParam(query, 'filter[signup-field.id]', 64);
    if (student !== undefined) none ||= !(f.userUuid = decodeId('student', student) ?? undefined);
    if (field !== undefined) none ||= !(f.fieldUuid = decodeId('signupField', field) ?? undefined);
    if (domains !== undefined) f.domains = domains;
    const rows = none ? [] : await this.values.list(p, page, f);
    if (f.updatedSince) return page.documentAt(rows, presentSignupFieldValueV2, (r) => ({ t: isoOf(r.updated_at), id: r.id }));
    return page.document(rows, presentSignupFieldValueV2);
  }

  @Get(':signup_field_value_id')
  @Scopes('signup-fields:read')
  async get(@Auth() p: Principal, @Param('signup_field_value_id') id: string) {
    return { data: presentSignupFieldValueV2(await this.values.get(p, id)) };
  }
}
