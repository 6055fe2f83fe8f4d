import { Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { V1 } from '../../core/http/interfaces';
import { V1Resource } from '../../core/routes/v1-resource';
import { V1_PAGE_CAP } from '../../core/pagination/v1-page';
import { presentContentItem } from './content-items.v1.presenter';
import { V1ContentItemsService } from './content-items.v1.service';
import { ContentItemRequest, ContentItemUpdateRequest } from './dto/content-item.v1.dto';

/**
 * /v1/lessons/{lesson_id}/content-items (content-items:read / content-items:write; PUT and PATCH
 * alike). The published document has no delete for content items. Pages caller-set up to 100.
 */
@V1()
@ApiTags('v1 content items')
@V1Resource<V1ContentItemsService>({
  service: V1ContentItemsService,
  id: 'lesson_content_item_id',
  scopes: 'content-items',
  present: presentContentItem,
  list: { call: (s) => s.list, cap: V1_PAGE_CAP.small },
  create: { call: (s) => s.create, body: ContentItemRequest },
  read: { call: (s) => s.get, handler: 'read' },
  update: { call: (s) => s.update, body: ContentItemUpdateRequest },
})
@Controller('v1/lessons/:lesson_id/content-items')
export class ContentItemsV1Controller {
  constructor(readonly items: V1ContentItemsService) {}
}
