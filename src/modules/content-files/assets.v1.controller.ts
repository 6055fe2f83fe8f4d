import { Body, Controller, Delete, Get, HttpCode, Param, Post, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { Auth, Scopes } from '../../core/auth/decorators';
import type { Principal } from '../../core/auth/principal';
import { AppConfig } from '../../core/config/config';
import { requestBaseUrl } from '../../core/http/base-url';
import { V1_PAGE_CAP, Paged, V1Page } from '../../core/pagination/v1-page';
import { AssetsService } from './assets.service';
import { AssetRequest } from './dto/asset.dto';
import { presentAsset } from './presenters';
import { V1 } from '../../core/http/interfaces';

/** /v1/assets: list (caller-set page_size, capped at 100), create, read, delete. */
@V1()
@Controller('v1/assets')
export class AssetsV1Controller {
  constructor(
    private readonly assets: AssetsService,
    private readonly config: AppConfig,
  ) {}

  @Get()
  @Scopes('assets:read')
  async list(@Auth() p: Principal, @Paged(V1_PAGE_CAP.small) page: V1Page) {
    const { rows, count } = await this.assets.list(p, page);
    return page.list(rows.map((a) => presentAsset(a, this.config, { withDownload: false })), count);
  }

  @Post()
  @Scopes('assets:write')
  async create(@Auth() p: Principal, @Body() dto: AssetRequest) {
    return presentAsset(await this.assets.create(p, dto), this.config, { withDownload: false });
  }

  @Get(':asset_id')
  @Scopes('assets:read')
  async read(@Auth() p: Principal, @Param('asset_id') id: string, @Req() req: FastifyRequest) {
    return presentAsset(await this.assets.get(p, id), this.config, { withDownload: true, baseUrl: requestBaseUrl(this.config, req) });
  }

  @Delete(':asset_id')
  @HttpCode(204)
  @Scopes('assets:write')
  async remove(@Auth() p: Principal, @Param('asset_id') id: string) {
    await this.assets.delete(p, id);
  }
}
