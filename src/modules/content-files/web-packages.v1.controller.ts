import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { Auth, Scopes } from '../../core/auth/decorators';
import type { Principal } from '../../core/auth/principal';
import { AppConfig } from '../../core/config/config';
import { requestBaseUrl } from '../../core/http/base-url';
import { V1_PAGE_CAP, Paged, V1Page } from '../../core/pagination/v1-page';
import { WebPackageLessonsRequest, WebPackageRequest } from './dto/web-package.dto';
import { presentWebPackage } from './presenters';
import { WebPackagesService } from './web-packages.service';
import { V1 } from '../../core/http/interfaces';

/** /v1/web-packages: list (caller-set page_size, capped at 100), create, read, delete, lessons replacement. */
@V1()
@Controller('v1/web-packages')
export class WebPackagesV1Controller {
  constructor(
    private readonly packages: WebPackagesService,
    private readonly config: AppConfig,
  ) {}

  @Get()
  @Scopes('web-packages:read')
  async list(@Auth() p: Principal, @Paged(V1_PAGE_CAP.small) page: V1Page) {
    const { rows, count } = await this.packages.list(p, page);
    return page.list(rows.map((w) => presentWebPackage(w, this.config, { withDownload: false })), count);
  }

  @Post()
  @Scopes('web-packages:write')
  async create(@Auth() p: Principal, @Body() dto: WebPackageRequest) {
    return presentWebPackage(await this.packages.create(p, dto), this.config, { withDownload: false });
  }

  @Get(':web_package_id')
  @Scopes('web-packages:read')
  async read(@Auth() p: Principal, @Param('web_package_id') id: string, @Req() req: FastifyRequest) {
    return presentWebPackage(await this.packages.get(p, id), this.config, { withDownload: true, baseUrl: requestBaseUrl(this.config, req) });
  }

  @Delete(':web_package_id')
  @HttpCode(204)
  @Scopes('web-packages:write')
  async remove(@Auth() p: Principal, @Param('web_package_id') id: string) {
    await this.packages.delete(p, id);
  }

  /** 200 without a body, as the published operation. */
  @Put(':web_package_id/lessons')
  @HttpCode(200)
  @Scopes('web-packages:write')
  async lessons(@Auth() p: Principal, @Param('web_package_id') id: string, @Body() dto: WebPackageLessonsRequest): Promise<void> {
    await this.packages.replaceInLessons(p, id, dto);
  }
}
