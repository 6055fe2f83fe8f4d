import { NoBody } from '../../core/openapi/no-body';
import { Body, Controller, HttpCode, Param, Put } from '@nestjs/common';
import { Auth, Scopes } from '../../core/auth/decorators';
import type { Principal } from '../../core/auth/principal';
import { AppConfig } from '../../core/config/config';
import { WebPackageLessonsRequest, WebPackageRequest } from './dto/web-package.dto';
import { presentWebPackage } from './presenters';
import { WebPackagesService } from './web-packages.service';
import { V1 } from '../../core/http/interfaces';
import { V1FileResource } from './v1-file-resource';
import { WebPackage } from './entities';

/** /v1/web-packages: list (caller-set page_size, capped at 100), create, read (with its download URL), delete, lessons replacement. */
@V1()
@V1FileResource<WebPackagesService, WebPackage>({ service: WebPackagesService, id: 'web_package_id', scopes: 'web-packages', body: WebPackageRequest, present: presentWebPackage })
@Controller('v1/web-packages')
export class WebPackagesV1Controller {
  constructor(
    readonly packages: WebPackagesService,
    readonly config: AppConfig,
  ) {}

  /** 200 without a body, as the published operation. */
  @Put(':web_package_id/lessons')
  @HttpCode(200)
  @NoBody(200, 'The lessons now show this package (no body)')
  @Scopes('web-packages:write')
  async lessons(@Auth() p: Principal, @Param('web_package_id') id: string, @Body() dto: WebPackageLessonsRequest): Promise<void> {
    await this.packages.replaceInLessons(p, id, dto);
  }
}
