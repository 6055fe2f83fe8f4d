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
import { TagsService, presentTag } from './tags.service';

/** /v1/tags (tags:read / tags:write); pages of up to 1000 (section 8). */
@V1()
@ApiTags('v1 tags')
@Controller('v1/tags')
export class TagsV1Controller {
  constructor(
    private readonly tags: TagsService,
    private readonly config: AppConfig,
  ) {}

  @Get()
  @Scopes('tags:read')
  async list(@Auth() p: Principal, @Query() query: PageQuery, @Req() req: FastifyRequest) {
    const page = parseV1Page(query as Record<string, unknown>, V1_PAGE_CAP.large);
    const [rows, count] = await this.tags.list(p, page);
    return v1List(rows.map(presentTag), count, page, requestBaseUrl(this.config, req), req.url);
  }

  @Post()
  @Scopes('tags:write')
  async create(@Auth() p: Principal, @Body() dto: NameRequest) {
    return presentTag(await this.tags.create(p, dto.name!));
  }

  @Get(':tag_id')
  @Scopes('tags:read')
  async read(@Auth() p: Principal, @Param('tag_id') id: string) {
    return presentTag(await this.tags.get(p, id));
  }

  @Put(':tag_id')
  @Scopes('tags:write')
  async update(@Auth() p: Principal, @Param('tag_id') id: string, @Body() dto: NameRequest) {
    return presentTag(await this.tags.update(p, id, dto.name));
  }

  @Patch(':tag_id')
  @Scopes('tags:write')
  async partialUpdate(@Auth() p: Principal, @Param('tag_id') id: string, @Body() dto: PatchedNameRequest) {
    return presentTag(await this.tags.update(p, id, dto.name));
  }

  @Delete(':tag_id')
  @HttpCode(204)
  @Scopes('tags:write')
  async remove(@Auth() p: Principal, @Param('tag_id') id: string) {
    await this.tags.delete(p, id);
  }
}
