import { Controller } from '@nestjs/common';
import { V1 } from '../../core/http/interfaces';
import { V1Resource } from '../../core/routes/v1-resource';
import { V1_PAGE_CAP } from '../../core/pagination/v1-page';
import { PathFieldsDto } from './dto/published-path.dto';
import { presentPath, presentPathItem } from './paths.presenter';
import { PathItemsService } from './path-items.service';
import { PathsService, PathView } from './paths.service';

/** /v1/paths: the organization's paths (created by publishing one; PUT and PATCH alike) and their items. */
@V1()
@V1Resource<PathsService>({
  service: PathsService,
  id: 'path_id',
  scopes: 'paths',
  present: (r: PathView) => presentPath(r.path, r.itemCount),
  list: { call: (s) => s.listPaths, handler: 'list', cap: V1_PAGE_CAP.small },
  read: { call: (s) => s.readPath, handler: 'read' },
  update: { call: (s) => s.updatePath, handler: 'update', body: PathFieldsDto },
  remove: { call: (s) => s.deletePath, handler: 'remove' },
})
@V1Resource<PathItemsService>({
  service: PathItemsService,
  at: ':path_id/path-items',
  id: 'path_item_id',
  scopes: 'paths',
  present: presentPathItem,
  list: { call: (s) => s.listPathItems, handler: 'items', cap: V1_PAGE_CAP.small },
  read: { call: (s) => s.readPathItem, handler: 'item' },
})
@Controller('v1/paths')
export class PathsV1Controller {
  constructor(
    readonly paths: PathsService,
    readonly itemsService: PathItemsService,
  ) {}
}
