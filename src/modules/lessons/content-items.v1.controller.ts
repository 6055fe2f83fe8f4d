import { Body, Controller, Get, Param, Post, Put } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Auth, Scopes } from '../../core/auth/decorators';
import type { Principal } from '../../core/auth/principal';
import { V1_PAGE_CAP, Paged, V1Page } from '../../core/pagination/v1-page';
import { presentContentItem } from './content-items.v1.presenter';
import { V1ContentItemsService } from './content-items.v1.service';
import { ContentItemRequest, ContentItemUpdateRequest } from './dto/content-item.v1.dto';
import { V1 } from '../../core/http/interfaces';
import { PutAndPatch } from '../../core/http/put-and-patch';

/**
 * /v1/lessons/{lesson_id}/content-items (content-items:read / content-items:write). The published
 * document has no delete for content items. Pages caller-set up to 100.
 */
@V1()
@ApiTags('v1 content items')
@Controller('v1/lessons/:lesson_id/content-items')
export class ContentItemsV1Controller {
  constructor(private readonly items: V1ContentItemsService) {}

  @Get()
  @Scopes('content-items:read')
  async list(@Auth() p: Principal, @Param('lesson_id') lessonId: string, @Paged(V1_PAGE_CAP.small) page: V1Page) {
    const [rows, count] = await this.items.list(p, lessonId, page);
    return page.list(rows.map(presentContentItem), count);
  }

  @Post()
  @Scopes('content-items:write')
  async create(@Auth() p: Principal, @Param('lesson_id') lessonId: string, @Body() dto: ContentItemRequest) {
    return presentContentItem(await this.items.create(p, lessonId, dto));
  }

  @Get(':lesson_content_item_id')
  @Scopes('content-items:read')
  async read(@Auth() p: Principal, @Param('lesson_id') lessonId: string, @Param('lesson_content_item_id') id: string) {
    return presentContentItem(await this.items.get(p, lessonId, id));
  }

  @PutAndPatch(':lesson_content_item_id')
  @Scopes('content-items:write')
  async update(@Auth() p: Principal, @Param('lesson_id') lessonId: string, @Param('lesson_content_item_id') id: string, @Body() dto: ContentItemUpdateRequest) {
    return presentContentItem(await this.items.update(p, lessonId, id, dto));
  }
}
