import { Body, Controller, Get, Param, Patch, Post, Query, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Auth, Scopes } from '../../core/auth/decorators';
import type { Principal } from '../../core/auth/principal';
import { BatchResult, batchItems, runBatch } from '../../core/batch/batch';
import { AppConfig } from '../../core/config/config';
import { ApiError, ValidationFailed } from '../../core/http/api-error';
import { BaseUrl } from '../../core/http/base-url';
import { V2 } from '../../core/http/interfaces';
import { decodeId } from '../../core/ids/ids';
import { CursorPaged, V2Page } from '../../core/pagination/cursor-page';
import { presentCertificate } from '../certificates/certificates.presenter';
import { dateTimeParam, filterParam, invalid, listParam, stringParam } from '../../core/http/query-params';
import { presentStudent } from '../students/students.presenter';
import {
  EnrollmentBatchCreateRequest,
  EnrollmentCompletionItem,
  EnrollmentCompletionRequestEnvelope,
  EnrollmentCreateItem,
  EnrollmentUpdateItem,
  EnrollmentUpdateRequestEnvelope,
} from './dto/enrollment.v2.dto';
import { EnrollmentsBatchService } from './enrollments.batch.service';
import { EnrollmentsCompletionService } from './enrollments.completion.service';
import { presentEnrollment, presentEnrollmentCompletion, presentEnrollmentWrite } from './enrollments.v2.presenter';
import { EnrollmentFilters, EnrollmentsV2Service, EnrollmentV2Row, PROGRESS_STATUSES, ProgressStatus } from './enrollments.v2.service';
import { itemDateTime } from '../../core/http/v2-dates';
import { FastRead } from '../../core/routes/fast-path';
import { isoOf } from '../../core/database/pool-reads';

const INCLUDES = ['purchase', 'student', 'certificate'] as const;
type Include = (typeof INCLUDES)[number];
const DATE_FILTERS = ['filter[enrolled_gte]', 'filter[enrolled_lte]', 'filter[completed_gte]', 'filter[completed_lte]'];
const idKey = (raw: Record<string, any>) => (typeof raw.id === 'string' ? raw.id : undefined);

/** `include`: a comma-separated subset of purchase, student, certificate (anything else is 422). */
function parseInclude(query: Record<string, unknown>): Set<Include> {
  const names = listParam(query, 'include') ?? [];
  const unknown = names.filter((n) => !(INCLUDES as readonly string[]).includes(n));
  if (unknown.length) throw invalid('include', `unsupported: ${unknown.join(', ')} (supported: ${INCLUDES.join(', ')})`);
  return new Set(names as Include[]);
}

/** A request-level member: 422 naming it. */
const badMember = (member: string, message: string) => new ValidationFailed([{ pointer: `/${member}`, field: member, message }]);

/**
 * /v2/enrollments (the published v2 document; docs/decisions/v2-enrollments.md): list with every
 * published filter, read, bulk-enroll by email into one published course, batch update, and the
 * completion batch. Scopes `enrollments:read` / `enrollments:write`.
 */
@ApiTags('enrollments')
@ApiBearerAuth('JWTAuth')
@V2()
@Controller('v2/enrollments')
export class EnrollmentsV2Controller {
  constructor(
    private readonly reads: EnrollmentsV2Service,
    private readonly batch: EnrollmentsBatchService,
    private readonly completion: EnrollmentsCompletionService,
    private readonly config: AppConfig,
  ) {}

  @Get()
  @Scopes('enrollments:read')
  @FastRead<EnrollmentsV2Controller>((c, { principal, query, page }) => c.list(principal, query, page('enrollments')))
  @ApiQuery({ name: 'filter[student.id]', required: false, schema: { type: 'string' } })
  @ApiQuery({ name: 'filter[student.email]', required: false, schema: { type: 'string' } })
  @ApiQuery({ name: 'filter[course.id]', required: false, schema: { type: 'string' } })
  @ApiQuery({ name: 'filter[enrolled_gte]', required: false, schema: { type: 'string', format: 'date-time' } })
  @ApiQuery({ name: 'filter[enrolled_lte]', required: false, schema: { type: 'string', format: 'date-time' } })
  @ApiQuery({ name: 'filter[completed_gte]', required: false, schema: { type: 'string', format: 'date-time' } })
  @ApiQuery({ name: 'filter[completed_lte]', required: false, schema: { type: 'string', format: 'date-time' } })
  @ApiQuery({ name: 'filter[progress_status]', required: false, schema: { type: 'string' }, description: 'comma-separated: completed, in_progress, not_started' })
  @ApiQuery({ name: 'filter[domains]', required: false, schema: { type: 'string' } })
  @ApiQuery({ name: 'filter[active]', required: false, schema: { type: 'boolean' } })
  @ApiQuery({
    name: 'filter[updated_since]',
    required: false,
    schema: { type: 'string', format: 'date-time' },
    description: 'changed at or after (RFC 3339 with an offset); the list is then ordered by last change',
  })
  @ApiQuery({ name: 'include', required: false, schema: { type: 'string' }, description: 'comma-separated: purchase, student, certificate' })
  async list(@Auth() p: Principal, @Query() query: Record<string, unknown>, @CursorPaged('enrollments') page: V2Page) {
    const include = parseInclude(query);
    const filters = this.filters(query);
    const rows = filters ? await this.reads.list(p, page, filters) : [];
    const present = (r: EnrollmentV2Row) => presentEnrollment(r, page.baseUrl);
    const doc = filters?.updatedSince ? page.documentAt(rows, present, (r) => ({ t: isoOf(r.updatedAt!), id: r.id })) : page.document(rows, present);
    if (!include.size) return doc;
    return { ...doc, included: await this.included(p, page.shown(rows), include, page.baseUrl) };
  }

  @Get(':id')
  @Scopes('enrollments:read')
  @FastRead<EnrollmentsV2Controller>((c, { principal, params, query, baseUrl }) => c.get(principal, params.id, query, baseUrl()))
  @ApiQuery({ name: 'include', required: false, schema: { type: 'string' } })
  async get(@Auth() p: Principal, @Param('id') id: string, @Query() query: Record<string, unknown>, @BaseUrl() base: string) {
    const include = parseInclude(query);
    const row = await this.reads.get(p, id);
    const data = presentEnrollment(row, base);
    return include.size ? { data, included: await this.included(p, [row], include, base) } : { data };
  }

  /**
   * Bulk-enroll. Request level first: the envelope (400), the top-level members' types (422), a
   * past expires_at (400), the published course (404); then the items, first occurrence of an
   * email wins.
   */
  @Post()
  @Scopes('enrollments:write')
  @ApiBody({ type: EnrollmentBatchCreateRequest })
  async create(@Auth() p: Principal, @Body() body: unknown, @BaseUrl() base: string, @Res({ passthrough: true }) reply: FastifyReply) {
    batchItems(body, this.config.BATCH_MAX_ITEMS);
    const b = body as Record<string, unknown>;
    if (typeof b.published_course_id !== 'string') {
      throw badMember('published_course_id', b.published_course_id === undefined ? 'is required' : 'must be a string');
    }
    if (b.expires_at !== undefined && b.expires_at !== null && typeof b.expires_at !== 'string') throw badMember('expires_at', 'must be a date-time string or null');
    const expires = itemDateTime(b.expires_at as string | null | undefined, '/expires_at');
    if ('error' in expires) throw badMember('expires_at', expires.error.replace(/^expires_at: /, ''));
    if (expires.value && expires.value.getTime() <= Date.now()) {
      throw new ApiError(400, 'expires_at must be in the future.', { source: { pointer: '/expires_at' } });
    }
    const target = await this.batch.target(p, b.published_course_id);
    const result = await runBatch(
      body,
      {
        itemClass: EnrollmentCreateItem,
        type: 'enrollments',
        maxItems: this.config.BATCH_MAX_ITEMS,
        dedupeKey: (raw) => (typeof raw.attributes?.email === 'string' ? raw.attributes.email.toLowerCase() : undefined),
        dedupePointer: '/attributes/email',
      },
      (items) => this.batch.enrollMany(p, target, expires.value, items),
    );
    return this.answer(reply, result, (r) => presentEnrollmentWrite(r, base));
  }

  @Patch()
  @Scopes('enrollments:write')
  @ApiBody({ type: EnrollmentUpdateRequestEnvelope })
  async update(@Auth() p: Principal, @Body() body: unknown, @BaseUrl() base: string, @Res({ passthrough: true }) reply: FastifyReply) {
    const result = await runBatch(body, { itemClass: EnrollmentUpdateItem, type: 'enrollments', maxItems: this.config.BATCH_MAX_ITEMS, dedupeKey: idKey, dedupePointer: '/id' }, (items) =>
      this.batch.updateMany(p, items),
    );
    return this.answer(reply, result, (r) => presentEnrollmentWrite(r, base));
  }

  /** `send_notifications` (a boolean) is required; items set or remove (`completed_at: null`) a completion. */
  @Patch('completion')
  @Scopes('enrollments:write')
  @ApiBody({ type: EnrollmentCompletionRequestEnvelope })
  async complete(@Auth() p: Principal, @Body() body: unknown, @Res({ passthrough: true }) reply: FastifyReply) {
    batchItems(body, this.config.BATCH_MAX_ITEMS);
    const notify = (body as Record<string, unknown>).send_notifications;
    if (typeof notify !== 'boolean') throw badMember('send_notifications', notify === undefined ? 'is required' : 'must be a boolean');
    const result = await runBatch(body, { itemClass: EnrollmentCompletionItem, type: 'enrollments', maxItems: this.config.BATCH_MAX_ITEMS, dedupeKey: idKey, dedupePointer: '/id' }, (items) =>
      this.completion.completeMany(p, items),
    );
    return this.answer(reply, result, presentEnrollmentCompletion);
  }

  /** The status, and each succeeded item's result presented. */
  private answer<R, O>(reply: FastifyReply, result: BatchResult<R>, present: (r: R) => O) {
    reply.status(result.status);
    return { ...result.body, data: result.body.data.map((d) => (d.result === undefined ? d : { ...d, result: present(d.result) })) };
  }

  /** The list filters; null when one names something that cannot exist (an undecodable id): an empty page. */
  private filters(query: Record<string, unknown>): EnrollmentFilters | null {
    const f: EnrollmentFilters = {};
    const [enrolledGte, enrolledLte, completedGte, completedLte] = DATE_FILTERS.map((n) => dateTimeParam(query, n, true));
    Object.assign(f, { enrolledGte, enrolledLte, completedGte, completedLte, updatedSince: dateTimeParam(query, 'filter[updated_since]', true) });
    const progress = listParam(query, 'filter[progress_status]');
    if (progress) {
      const unknown = progress.filter((s) => !PROGRESS_STATUSES.includes(s as ProgressStatus));
      if (unknown.length) throw invalid('filter[progress_status]', `must be a comma-separated list of ${PROGRESS_STATUSES.join(', ')}`);
      if (progress.length) f.progress = progress as ProgressStatus[];
    }
    const domains = listParam(query, 'filter[domains]');
    if (domains && domains.length) f.domains = domains;
    const active = stringParam(query, 'filter[active]', 16);
    if (active !== undefined) {
      if (active !== 'true' && active !== 'false') throw invalid('filter[active]', 'must be true or false');
      f.active = active === 'true';
    }
    // text filters last: an over-long one matches nothing (the empty page), after every parameter that can be refused
    const student = filterParam(query, 'filter[student.id]', 1000);
    const course = filterParam(query, 'filter[course.id]', 1000);
    const email = filterParam(query, 'filter[student.email]', 254);
    if (email !== undefined) f.studentEmail = email.trim().toLowerCase();
    if (student !== undefined) {
      const uuid = decodeId('student', student);
      if (!uuid) return null;
      f.studentUuid = uuid;
    }
    if (course !== undefined) {
      const uuid = decodeId('course', course);
      if (!uuid) return null;
      f.courseUuid = uuid;
    }
    return f;
  }

  /** `included`: the page's students and certificates (one statement each), purchases (none on this platform yet). */
  private async included(p: Principal, rows: EnrollmentV2Row[], include: Set<Include>, base: string): Promise<unknown[]> {
    const out: unknown[] = [];
    if (include.has('student'))
      out.push(
        ...(
          await this.reads.students(
            p.organizationId,
            rows.map((r) => r.userId),
          )
        ).map(presentStudent),
      );
    if (include.has('certificate')) {
      const ids = rows.map((r) => r.certificateId).filter((id): id is string => id !== null);
      const now = new Date();
      out.push(...(await this.reads.certificates(p.organizationId, ids)).map((c) => presentCertificate(c, base, now)));
    }
    return out;
  }
}
