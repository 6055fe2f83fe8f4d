import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiOkResponse, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Auth, Scopes } from '../../core/auth/decorators';
import type { Principal } from '../../core/auth/principal';
import { AppConfig } from '../../core/config/config';
import { conflict } from '../../core/http/api-error';
import { BaseUrl } from '../../core/http/base-url';
import { V2 } from '../../core/http/interfaces';
import { replyBatch } from '../../core/routes/v2-batch';
import { encodeId } from '../../core/ids/ids';
import { Type, type Static } from '@sinclair/typebox';
import { DateTime, nullable, openApi, PublicId, Related, V2BatchSchema, V2DocumentSchema, V2PageSchema, V2RelatedResourceSchema } from '../../core/openapi/declared-shape';
import { CursorPaged, V2Page } from '../../core/pagination/cursor-page';
import { dateTimeParam } from '../../core/http/query-params';
import { isoOf } from '../../core/database/pool-reads';
import { DomainMembershipRow, DomainMembershipsV2Service } from './domain-memberships.v2.service';
import { DomainMembershipRequestEnvelope, DomainRefV2 } from './dto/domain-membership.v2.dto';

/**
 * DomainMembershipResource (/v2 style of CONVENTIONS §4), declared once (core/openapi/declared-shape.ts):
 * the type of presentDomainMembership's result and the domain-memberships answers of /openapi.json.
 */
export const DomainMembershipV2Schema = V2RelatedResourceSchema(
  'domain-memberships',
  Type.Object({
    domain_id: PublicId({ description: 'Opaque id of the domain.' }),
    domain_name: Type.String({ description: 'Name of the domain.' }),
    active: Type.Boolean({ description: 'Whether the membership is active.' }),
    enrolled_at: DateTime({ description: 'When the student joined the domain.' }),
    expires_at: nullable(DateTime({ description: 'When the membership expires; null: never.' })),
    created_at: DateTime({ description: 'When the membership was created.' }),
  }),
  Type.Object({ student: Related('students', 'The student.'), domain: Related('domains', 'The domain.') }),
  { description: "A student's membership of a domain (DomainMembershipResource)." },
);
export type DomainMembershipV2 = Static<typeof DomainMembershipV2Schema>;

/**
 * DomainMembershipResource: the membership's own opaque id, the domain's id and name, whether it is
 * active, when the student joined and when the membership expires (null: never); relationships to
 * the student and the domain; the self link is the membership's address under the student.
 */
export function presentDomainMembership(m: DomainMembershipRow, baseUrl: string): DomainMembershipV2 {
  const student = encodeId('student', m.userId);
  const domain = encodeId('domain', m.domainId);
  return {
    type: 'domain-memberships',
    id: encodeId('domainMembership', m.id),
    attributes: {
      domain_id: domain,
      domain_name: m.domainName,
      active: m.active,
      enrolled_at: new Date(m.enrolledAt).toISOString(),
      expires_at: m.expiresAt ? new Date(m.expiresAt).toISOString() : null,
      created_at: new Date(m.createdAt).toISOString(),
    },
    relationships: { student: { data: { type: 'students', id: student } }, domain: { data: { type: 'domains', id: domain } } },
    links: { self: `${baseUrl.replace(/\/$/, '')}/v2/students/${student}/relationships/domain-memberships/${domain}` },
  };
}

/**
 * /v2/students/{id}/relationships/domain-memberships/ (live /v2 addition, CONVENTIONS §17): list and
 * register (a batch of domains, idempotent), read and remove one by the domain's id. The student is
 * resolved in the caller's organization first (404 whatever the body). Scopes students:read|write.
 */
@ApiTags('students')
@ApiBearerAuth('JWTAuth')
@V2()
@Controller('v2/students/:id/relationships/domain-memberships')
export class DomainMembershipsV2Controller {
  constructor(
    private readonly memberships: DomainMembershipsV2Service,
    private readonly config: AppConfig,
  ) {}

  @Get()
  @Scopes('students:read')
  @ApiOkResponse({ description: "A page of the student's domain memberships", schema: openApi(V2PageSchema(DomainMembershipV2Schema)) })
  @ApiQuery({
    name: 'filter[updated_since]',
    required: false,
    schema: { type: 'string', format: 'date-time' },
    description: 'changed at or after (RFC 3339 with an offset); the list is then ordered by last change',
  })
  async list(@Auth() p: Principal, @Param('id') id: string, @Query() query: Record<string, unknown>, @CursorPaged('domain-memberships') page: V2Page) {
    const updatedSince = dateTimeParam(query, 'filter[updated_since]', true);
    const student = await this.memberships.requireStudent(p, id);
    const rows = await this.memberships.list(p, student.id, page, updatedSince);
    const present = (m: DomainMembershipRow) => presentDomainMembership(m, page.baseUrl);
    return updatedSince ? page.documentAt(rows, present, (m) => ({ t: isoOf(m.updatedAt), id: m.id })) : page.document(rows, present);
  }

  @Post()
  @Scopes('students:write')
  @ApiBody({ type: DomainMembershipRequestEnvelope })
  @ApiResponse({ status: 200, description: 'Every domain registered (or already a membership)', schema: openApi(V2BatchSchema(DomainMembershipV2Schema)) })
  @ApiResponse({ status: 207, description: 'Some items failed: the per-item results', schema: openApi(V2BatchSchema(DomainMembershipV2Schema)) })
  async add(@Auth() p: Principal, @Param('id') id: string, @Body() body: unknown, @BaseUrl() base: string, @Res({ passthrough: true }) reply: FastifyReply) {
    const student = await this.memberships.requireStudent(p, id);
    // an anonymized student joins nothing: the whole request, before the body is read
    if (student.is_anonymized) throw conflict('The student is anonymized.');
    const answer = await replyBatch(
      reply,
      body,
      { itemClass: DomainRefV2, type: 'domains', maxItems: this.config.BATCH_MAX_ITEMS, dedupeKey: (raw) => (typeof raw.id === 'string' ? raw.id : undefined), dedupePointer: '/id' },
      (items) => this.memberships.add(p, student, items),
    );
    return { ...answer, data: answer.data.map((d) => (d.result ? { ...d, result: presentDomainMembership(d.result, base) } : d)) };
  }

  @Get(':domain_id')
  @Scopes('students:read')
  @ApiOkResponse({ description: 'The domain membership', schema: openApi(V2DocumentSchema(DomainMembershipV2Schema)) })
  async get(@Auth() p: Principal, @Param('id') id: string, @Param('domain_id') domainId: string, @BaseUrl() base: string) {
    const student = await this.memberships.requireStudent(p, id);
    return { data: presentDomainMembership(await this.memberships.get(p, student.id, domainId), base) };
  }

  @Delete(':domain_id')
  @HttpCode(204)
  @Scopes('students:write')
  async remove(@Auth() p: Principal, @Param('id') id: string, @Param('domain_id') domainId: string): Promise<void> {
    const student = await this.memberships.requireStudent(p, id);
    await this.memberships.remove(p, student.id, domainId);
  }
}
