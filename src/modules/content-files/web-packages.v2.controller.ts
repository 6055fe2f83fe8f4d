import { Controller, Delete, Get, HttpCode, Param, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { Auth, Scopes } from '../../core/auth/decorators';
import { RateLimit } from '../../core/auth/rate-limit';
import type { Principal } from '../../core/auth/principal';
import { AppConfig } from '../../core/config/config';
import { BaseUrl } from '../../core/http/base-url';
import { V2 } from '../../core/http/interfaces';
import { V2Batches } from '../../core/routes/v2-batch';
import { CursorPaged, V2Page } from '../../core/pagination/cursor-page';
import { WebPackageCreateItemV2, WebPackageUpdateItemV2 } from './dto/web-package.v2.dto';
import { WebPackagesV2Service } from './web-packages.v2.service';
import { presentWebPackageV2 } from './web-packages.v2.presenter';
import type { WebPackage } from './entities';
import { v2ChangeOf, V2UpdatedSinceQuery, v2UpdatedSince } from '../../core/pagination/v2-updated-since';

/** Create is rate limited more tightly than a plain batch, as published: each item queues an outbound fetch (docs/decisions/rate-limits.md). */
const createRateLimit = RateLimit({
  operation: 'web-packages:create',
  limit: 'WEB_PACKAGE_CREATE_RATE_LIMIT',
  window: 'WEB_PACKAGE_CREATE_RATE_WINDOW_SECONDS',
  organizationLimit: 'WEB_PACKAGE_CREATE_ORG_RATE_LIMIT',
});

/**
 * /v2/web-packages: list, create batch (answers PROCESSING; the worker imports, a bad archive ends
 * in state ERROR), update batch (title only), read, delete (409 while a lesson uses the package).
 * Scopes web-packages:read / web-packages:write.
 */
@ApiTags('web-packages')
@ApiBearerAuth('JWTAuth')
@V2()
@V2Batches<WebPackagesV2Service>({
  service: WebPackagesV2Service,
  type: 'web-packages',
  scopes: 'web-packages',
  create: {
    call: (s) => s.createMany,
    present: presentWebPackageV2,
    item: WebPackageCreateItemV2,
    doc: { description: 'Batch of web packages to fetch and import (no within-batch dedupe); each answers in state PROCESSING', items: '_WebPackageCreateData' },
    decorators: [createRateLimit],
  },
  update: { call: (s) => s.updateMany, present: presentWebPackageV2, item: WebPackageUpdateItemV2, doc: { description: 'Batch of title updates', items: '_WebPackageUpdateData' } },
})
@Controller('v2/web-packages')
export class WebPackagesV2Controller {
  constructor(
    readonly v2: WebPackagesV2Service,
    readonly config: AppConfig,
  ) {}

  @Get()
  @Scopes('web-packages:read')
  @V2UpdatedSinceQuery()
  async list(@Auth() p: Principal, @Query() query: Record<string, unknown>, @CursorPaged('web-packages') page: V2Page) {
    const since = v2UpdatedSince(query);
    const rows = await this.v2.list(p, page, since);
    const present = (w: WebPackage) => presentWebPackageV2(w, page.baseUrl);
    return since ? page.documentAt(rows, present, v2ChangeOf) : page.document(rows, present);
  }

  @Get(':id')
  @Scopes('web-packages:read')
  async get(@Auth() p: Principal, @Param('id') id: string, @BaseUrl() base: string) {
    return { data: presentWebPackageV2(await this.v2.packages.get(p, id), base) };
  }

  @Delete(':id')
  @HttpCode(204)
  @Scopes('web-packages:write')
  async remove(@Auth() p: Principal, @Param('id') id: string): Promise<void> {
    await this.v2.packages.delete(p, id, 409);
  }
}
