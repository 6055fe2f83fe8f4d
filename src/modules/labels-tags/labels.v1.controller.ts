import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Put, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { Auth, Scopes } from '../../core/auth/decorators';
import type { Principal } from '../../core/auth/principal';
import { AppConfig } from '../../core/config/config';
import { requestBaseUrl } from '../../core/http/base-url';
import { V1_PAGE_CAP, parseV1Page, v1List } from '../../core/pagination/v1-page';
import { PageQuery } from '../../core/http/v1-rules';
import { NameRequest, PatchedNameRequest } from './dto/label-tag.dto';
import { V1 } from '../../core/http/interfaces';
import { LabelsService, presentLabel } from './labels.service';

/** /v1/labels (labels:read / labels:write); pages of up to 1000 (section 8). */
@V1()
@ApiTags('v1 labels')
@Controller('v1/labels')
export class LabelsV1Controller {
  constructor(
    private readonly labels: LabelsService,
    private readonly config: AppConfig,
  ) {}

  @Get()
  @Scopes('labels:read')
  async list(@Auth() p: Principal, @Query() query: PageQuery, @Req() req: FastifyRequest) {
    const page = parseV1Page(query as Record<string, unknown>, V1_PAGE_CAP.large);
    const [rows, count] = await this.labels.list(p, page);
    return v1List(rows.map(presentLabel), count, page, requestBaseUrl(this.config, req), req.url);
  }

  @Post()
  @Scopes('labels:write')
  async create(@Auth() p: Principal, @Body() dto: NameRequest) {
    return presentLabel(await this.labels.create(p, dto.name!));
  }

  @Get(':label_id')
  @Scopes('labels:read')
  async read(@Auth() p: Principal, @Param('label_id') id: string) {
    return presentLabel(await this.labels.get(p, id));
  }

  @Put(':label_id')
  @Scopes('labels:write')
  async update(@Auth() p: Principal, @Param('label_id') id: string, @Body() dto: NameRequest) {
    return presentLabel(await this.labels.update(p, id, dto.name));
  }

  @Patch(':label_id')
  @Scopes('labels:write')
  async partialUpdate(@Auth() p: Principal, @Param('label_id') id: string, @Body() dto: PatchedNameRequest) {
    return presentLabel(await this.labels.update(p, id, dto.name));
  }

  @Delete(':label_id')
  @HttpCode(204)
  @Scopes('labels:write')
  async remove(@Auth() p: Principal, @Param('label_id') id: string) {
    await this.labels.delete(p, id);
  }
}
