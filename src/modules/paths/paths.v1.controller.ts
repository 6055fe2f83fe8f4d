import { Body, Controller, Delete, Get, HttpCode, Param, Put } from '@nestjs/common';
import { Auth, Scopes } from '../../core/auth/decorators';
import type { Principal } from '../../core/auth/principal';
import { V1_PAGE_CAP, Paged, V1Page } from '../../core/pagination/v1-page';
import { PathFieldsDto } from './dto/published-path.dto';
import { presentPath, presentPathItem } from './paths.presenter';
import { PathItemsService } from './path-items.service';
import { V1 } from '../../core/http/interfaces';
import { PutAndPatch } from '../../core/http/put-and-patch';
import { PathsService } from './paths.service';

/** /v1/paths: the organization's paths (created by publishing one) and their items. */
@V1()
@Controller('v1/paths')
export class PathsV1Controller {
  constructor(
    private readonly paths: PathsService,
    private readonly itemsService: PathItemsService,
  ) {}

  @Get()
  @Scopes('paths:read')
  async list(@Auth() p: Principal, @Paged(V1_PAGE_CAP.small) page: V1Page) {
    const { rows, count } = await this.paths.listPaths(p, page);
    return page.list(rows.map((r) => presentPath(r.path, r.itemCount)), count);
  }

  @Get(':path_id')
  @Scopes('paths:read')
  async read(@Auth() p: Principal, @Param('path_id') id: string) {
    const r = await this.paths.readPath(p, id);
    return presentPath(r.path, r.itemCount);
  }

  @PutAndPatch(':path_id')
  @Scopes('paths:write')
  async update(@Auth() p: Principal, @Param('path_id') id: string, @Body() dto: PathFieldsDto) {
    const r = await this.paths.updatePath(p, id, dto);
    return presentPath(r.path, r.itemCount);
  }

  @Delete(':path_id')
  @HttpCode(204)
  @Scopes('paths:write')
  async remove(@Auth() p: Principal, @Param('path_id') id: string) {
    await this.paths.deletePath(p, id);
  }

  @Get(':path_id/path-items')
  @Scopes('paths:read')
  async items(@Auth() p: Principal, @Param('path_id') id: string, @Paged(V1_PAGE_CAP.small) page: V1Page) {
    const { rows, count } = await this.itemsService.listPathItems(p, id, page);
    return page.list(rows.map(presentPathItem), count);
  }

  @Get(':path_id/path-items/:path_item_id')
  @Scopes('paths:read')
  async item(@Auth() p: Principal, @Param('path_id') id: string, @Param('path_item_id') itemId: string) {
    return presentPathItem(await this.itemsService.readPathItem(p, id, itemId));
  }
}
