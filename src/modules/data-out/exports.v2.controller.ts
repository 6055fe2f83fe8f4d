import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiResponse, ApiTags } from '@nestjs/swagger';
import { Auth, Scopes } from '../../core/auth/decorators';
import type { Principal } from '../../core/auth/principal';
import { AppConfig } from '../../core/config/config';
import { BaseUrl } from '../../core/http/base-url';
import { V2 } from '../../core/http/interfaces';
import { CursorPaged, V2Page } from '../../core/pagination/cursor-page';
import { openApi, V2DocumentSchema, V2PageSchema } from '../../core/openapi/declared-shape';
import { ExportSchema, presentExport } from './exports.presenter';
import { v2ChangeOf, V2UpdatedSinceQuery, v2UpdatedSince } from '../../core/pagination/v2-updated-since';
import { ExportsService } from './exports.service';

/**
 * /v2/exports (CONVENTIONS §20, extension): POST answers 202 with the export (state QUEUED); the
 * worker streams it to a file; GET shows state, rows_done, rows_total and, when SUCCEEDED, a signed
 * `download_url`. Scopes `data-export:write` / `data-export:read`. Another organization's export is 404.
 */
@ApiTags('exports')
@ApiBearerAuth('JWTAuth')
@V2()
@Controller('v2/exports')
export class ExportsV2Controller {
  constructor(
    private readonly exports: ExportsService,
    private readonly config: AppConfig,
  ) {}

  @Post()
  @HttpCode(202)
  @Scopes('data-export:write')
  @ApiResponse({ status: 202, description: 'The export, queued', schema: openApi(V2DocumentSchema(ExportSchema)) })
  async create(@Auth() p: Principal, @Body() body: unknown, @BaseUrl() base: string) {
    return { data: presentExport(await this.exports.create(p, body), this.config, base) };
  }

  @Get()
  @Scopes('data-export:read')
  @ApiOkResponse({ description: "A page of the organization's exports", schema: openApi(V2PageSchema(ExportSchema)) })
  @V2UpdatedSinceQuery()
  async list(@Auth() p: Principal, @Query() query: Record<string, unknown>, @CursorPaged('exports') page: V2Page) {
    const since = v2UpdatedSince(query);
    const rows = (await this.exports.list(p, page.after, page.size + 1, since)).map((r) => ({ ...r, createdAt: r.created_at, updatedAt: r.updated_at }));
    const present = (r: (typeof rows)[number]) => presentExport(r, this.config, page.baseUrl);
    return since ? page.documentAt(rows, present, v2ChangeOf) : page.document(rows, present);
  }

  @Get(':id')
  @Scopes('data-export:read')
  @ApiOkResponse({ description: 'The export', schema: openApi(V2DocumentSchema(ExportSchema)) })
  async get(@Auth() p: Principal, @Param('id') id: string, @BaseUrl() base: string) {
    return { data: presentExport(await this.exports.get(p, id), this.config, base) };
  }
}
