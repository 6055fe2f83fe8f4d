import { Controller, Get, Param, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { Auth, Scopes } from '../../core/auth/decorators';
import type { Principal } from '../../core/auth/principal';
import { AppConfig } from '../../core/config/config';
import { requestBaseUrl } from '../../core/http/base-url';
import { V1 } from '../../core/http/interfaces';
import { V1Resource } from '../../core/http/v1-resource';
import { V1_PAGE_CAP } from '../../core/pagination/v1-page';
import { AssetsService } from './assets.service';
import { AssetRequest } from './dto/asset.dto';
import { Asset } from './entities';
import { presentAsset } from './presenters';

/** /v1/assets: list (caller-set page_size, capped at 100), create, read (with its download URL), delete. */
@V1()
@V1Resource<AssetsService>({
  service: 'assets', id: 'asset_id', scopes: 'assets', present: (a: Asset, ctl: AssetsV1Controller) => presentAsset(a, ctl.config, { withDownload: false }),
  list: { call: 'list', cap: V1_PAGE_CAP.small },
  create: { call: 'create', body: AssetRequest },
  remove: { call: 'delete', handler: 'remove' },
})
@Controller('v1/assets')
export class AssetsV1Controller {
  constructor(
    readonly assets: AssetsService,
    readonly config: AppConfig,
  ) {}

  @Get(':asset_id')
  @Scopes('assets:read')
  async read(@Auth() p: Principal, @Param('asset_id') id: string, @Req() req: FastifyRequest) {
    return presentAsset(await this.assets.get(p, id), this.config, { withDownload: true, baseUrl: requestBaseUrl(this.config, req) });
  }
}
