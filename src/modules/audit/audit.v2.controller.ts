import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { IsOptional, IsString, Matches } from 'class-validator';
import { Auth, Scopes } from '../../core/auth/decorators';
import type { Principal } from '../../core/auth/principal';
import { ValidationFailed } from '../../core/http/api-error';
import { Extension } from '../../core/http/extension';
import { V2 } from '../../core/http/interfaces';
import { Filter } from '../../core/http/v1-rules';
import { CursorPaged, V2Page } from '../../core/pagination/cursor-page';
import { openApi, V2DocumentSchema, V2PageSchema } from '../../core/openapi/declared-shape';
import { AuditEventSchema, AuditService, presentAuditEvent } from './audit.service';
import { v2UpdatedSince, V2UpdatedSinceQuery } from '../../core/pagination/v2-updated-since';

/** AuditEventFilters (page[size] and page[cursor] are read by parsePage from the raw query). */
export class AuditEventListQuery {
  /** an administrator's or a client's id: longer than any id, it matches nothing */
  @Filter({ max: 64 })
  'filter[actor.id]'?: string;

  @IsOptional()
  @IsString()
  @Matches(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2})$/, { message: 'must be an RFC 3339 time with an offset' })
  'filter[created_gte]'?: string;

  /** CONVENTIONS §20: an audit event never changes, its creation is its last change (read by v2UpdatedSince: 422 naming it when bad) */
  @IsOptional()
  @IsString()
  'filter[updated_since]'?: string;
}

/** GET /v2/audit-events/ and /v2/audit-events/{id} (extension, CONVENTIONS §19, `audit:read`): the audit log of administrative writes, oldest first. */
@V2()
@ApiTags('Audit Events')
@Controller('v2/audit-events')
@Extension('the audit log of administrative writes: who (administrator, client or API key), which operation, which ids, when and from which address.')
export class AuditEventsV2Controller {
  constructor(private readonly audit: AuditService) {}

  @Get()
  @Scopes('audit:read')
  @V2UpdatedSinceQuery()
  @ApiOkResponse({ description: 'A page of audit events', schema: openApi(V2PageSchema(AuditEventSchema)) })
  async list(@Auth() p: Principal, @Query() q: AuditEventListQuery, @CursorPaged('audit-events') page: V2Page) {
    let createdGte: Date | undefined;
    if (q['filter[created_gte]'] !== undefined) {
      createdGte = new Date(q['filter[created_gte]']);
      if (Number.isNaN(createdGte.getTime())) throw new ValidationFailed([{ field: 'filter[created_gte]', message: 'must be an RFC 3339 time with an offset' }], 422);
    }
    // filter[updated_since]: the events made since (an event never changes), in their order (created_at, id), on audit_events_org_created_idx
    const updatedSince = v2UpdatedSince(q as unknown as Record<string, unknown>);
    const rows = await this.audit.list(p, page, { actorId: q['filter[actor.id]'], createdGte, updatedSince });
    return page.document(rows, presentAuditEvent);
  }

  @Get(':id')
  @Scopes('audit:read')
  @ApiOkResponse({ description: 'The audit event', schema: openApi(V2DocumentSchema(AuditEventSchema)) })
  async read(@Auth() p: Principal, @Param('id') id: string) {
    return { data: presentAuditEvent(await this.audit.get(p, id)) };
  }
}
