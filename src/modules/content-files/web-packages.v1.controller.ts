import { Body, Controller, Get, HttpCode, Param, Put, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { Auth, Scopes } from '../../core/auth/decorators';
import type { Principal } from '../../core/auth/principal';
import { AppConfig } from '../../core/config/config';
import { requestBaseUrl } from '../../core/http/base-url';
import { V1_PAGE_CAP } from '../../core/pagination/v1-page';
import { WebPackageLessonsRequest, WebPackageRequest } from './dto/web-package.dto';
import { presentWebPackage } from './presenters';
import { WebPackagesService } from './web-packages.service';
import { V1 } from '../../core/http/interfaces';
import { V1Resource } from '../../core/http/v1-resource';
import { WebPackage } from './entities';

/** /v1/web-packages: list (caller-set page_size, capped at 100), create, read (with its download URL), delete, lessons replacement. */
@V1()
@V1Resource<WebPackagesService>({
  service: 'packages', id: 'web_package_id', scopes: 'web-packages', present: (w: WebPackage, ctl: WebPackagesV1Controller) => presentWebPackage(w, ctl.config, { withDownload: false }),
  list: { call: 'list', cap: V1_PAGE_CAP.small },
  create: { call: 'create', body: WebPackageRequest },
  remove: { call: 'delete', handler: 'remove' },
})
@Controller('v1/web-packages')
export class WebPackagesV1Controller {
  constructor(
    readonly packages: WebPackagesService,
    readonly config: AppConfig,
  ) {}

  @Get(':web_package_id')
  @Scopes('web-packages:read')
  async read(@Auth() p: Principal, @Param('web_package_id') id: string, @Req() req: FastifyRequest) {
    return presentWebPackage(await this.packages.get(p, id), this.config, { withDownload: true, baseUrl: requestBaseUrl(this.config, req) });
  }

  /** 200 without a body, as the published operation. */
  @Put(':web_package_id/lessons')
  @HttpCode(200)
  @Scopes('web-packages:write')
  async lessons(@Auth() p: Principal, @Param('web_package_id') id: string, @Body() dto: WebPackageLessonsRequest): Promise<void> {
    await this.packages.replaceInLessons(p, id, dto);
  }
}
