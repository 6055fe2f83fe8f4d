import { Controller } from '@nestjs/common';
import { AppConfig } from '../../core/config/config';
import { V1 } from '../../core/http/interfaces';
import { AssetsService } from './assets.service';
import { AssetRequest } from './dto/asset.dto';
import { Asset } from './entities';
import { presentAsset } from './presenters';
import { V1FileResource } from './v1-file-resource';

/** /v1/assets: list (caller-set page_size, capped at 100), create, read (with its download URL), delete. */
@V1()
@V1FileResource<AssetsService, Asset>({ service: AssetsService, id: 'asset_id', scopes: 'assets', body: AssetRequest, present: presentAsset })
@Controller('v1/assets')
export class AssetsV1Controller {
  constructor(
    readonly assets: AssetsService,
    readonly config: AppConfig,
  ) {}
}
