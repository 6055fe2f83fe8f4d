import { Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { V1 } from '../../core/http/interfaces';
import { V1Resource } from '../../core/routes/v1-resource';
import { RatingContentBlockRequest } from './dto/rating-content-block.v1.dto';
import { presentRatingBlock, RatingContentBlocksV1Service } from './rating-content-blocks.v1.service';

/**
 * /v1/lessons/{lesson_id}/rating-content-blocks (content-items:read / content-items:write; the
 * published document has no list): create (with its RATING content item), read, PUT and PATCH
 * (both partial), delete (with its content item).
 */
@V1()
@ApiTags('v1 rating content blocks')
@V1Resource<RatingContentBlocksV1Service>({
  service: RatingContentBlocksV1Service,
  id: 'rating_content_block_id',
  scopes: 'content-items',
  present: presentRatingBlock,
  create: { call: (s) => s.create, body: RatingContentBlockRequest },
  read: { call: (s) => s.get, handler: 'read' },
  update: { call: (s) => s.update, body: RatingContentBlockRequest },
  remove: { call: (s) => s.delete, handler: 'remove' },
})
@Controller('v1/lessons/:lesson_id/rating-content-blocks')
export class RatingContentBlocksV1Controller {
  constructor(readonly blocks: RatingContentBlocksV1Service) {}
}
