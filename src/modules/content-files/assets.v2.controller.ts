import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiResponse, ApiTags } from '@nestjs/swagger';
import { Auth, Scopes } from '../../core/auth/decorators';
import type { Principal } from '../../core/auth/principal';
import { AppConfig } from '../../core/config/config';
import { conflict } from '../../core/http/api-error';
import { BaseUrl } from '../../core/http/base-url';
import { V2 } from '../../core/http/interfaces';
import { V2Batches } from '../../core/routes/v2-batch';
import { openApi, V2BatchSchema, V2DocumentSchema, V2PageSchema } from '../../core/openapi/declared-shape';
import { CursorPaged, V2Page } from '../../core/pagination/cursor-page';
import { AssetsV2Service } from './assets.v2.service';
import { AssetV2Schema, presentAssetV2 } from './assets.v2.presenter';
import { AssetCreateItemV2, AssetUpdateEnvelopeV2 } from './dto/asset.v2.dto';
import type { Asset } from './entities';
import { v2ChangeOf, V2UpdatedSinceQuery, v2UpdatedSince } from '../../core/pagination/v2-updated-since';

/**
 * /v2/assets (live /v2 addition, CONVENTIONS §17): list, create batch (a content_url answers
 * PROCESSING and the worker imports it, an embed link is READY at once), read, update
 * (name, aspect_ratio, sync_completion), delete (409 while a lesson uses the asset).
 * Scopes assets:read / assets:write.
 */
@ApiTags('assets')
@ApiBearerAuth('JWTAuth')
@V2()
@V2Batches<AssetsV2Service>({
  service: AssetsV2Service,
  type: 'assets',
  scopes: 'assets',
  create: {
    call: (s) => s.createMany,
    present: presentAssetV2,
    item: AssetCreateItemV2,
    decorators: [
      ApiResponse({ status: 200, description: 'Every asset created', schema: openApi(V2BatchSchema(AssetV2Schema)) }),
      ApiResponse({ status: 207, description: 'Some items failed: the per-item results', schema: openApi(V2BatchSchema(AssetV2Schema)) }),
    ],
  },
})
@Controller('v2/assets')
export class AssetsV2Controller {
  constructor(
    readonly v2: AssetsV2Service,
    readonly config: AppConfig,
  ) {}

  @Get()
  @Scopes('assets:read')
  @ApiOkResponse({ description: 'A page of assets', schema: openApi(V2PageSchema(AssetV2Schema)) })
  @V2UpdatedSinceQuery()
  async list(@Auth() p: Principal, @Query() query: Record<string, unknown>, @CursorPaged('assets') page: V2Page) {
    const since = v2UpdatedSince(query);
    const rows = await this.v2.list(p, page, since);
    const present = (a: Asset) => presentAssetV2(a, page.baseUrl);
    return since ? page.documentAt(rows, present, v2ChangeOf) : page.document(rows, present);
  }

  @Get(':id')
  @Scopes('assets:read')
  @ApiOkResponse({ description: 'The asset', schema: openApi(V2DocumentSchema(AssetV2Schema)) })
  async get(@Auth() p: Principal, @Param('id') id: string, @BaseUrl() base: string) {
    return { data: presentAssetV2(await this.v2.assets.get(p, id), base) };
  }

  @Patch(':id')
  @Scopes('assets:write')
  @ApiOkResponse({ description: 'The updated asset', schema: openApi(V2DocumentSchema(AssetV2Schema)) })
  async update(@Auth() p: Principal, @Param('id') id: string, @Body() body: AssetUpdateEnvelopeV2, @BaseUrl() base: string) {
    await this.v2.assets.get(p, id); // 404 first, whatever the body says
    if (body.data.id !== undefined && body.data.id !== id) throw conflict('data.id does not match the id of the path.');
    return { data: presentAssetV2(await this.v2.assets.update(p, id, body.data.attributes), base) };
  }

  @Delete(':id')
  @HttpCode(204)
  @Scopes('assets:write')
  async remove(@Auth() p: Principal, @Param('id') id: string): Promise<void> {
    await this.v2.assets.delete(p, id, 409);
  }
}
