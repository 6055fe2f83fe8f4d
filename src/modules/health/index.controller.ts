import { Controller, Get } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Public } from '../../core/auth/decorators';
import { NeutralApi } from '../../core/http/interfaces';
import { PACKAGE_NAME, PACKAGE_VERSION } from '../../core/runtime/package-info';

/** `GET /`: a small JSON index for a person or a client that opens the base URL (CONVENTIONS §23). */
@ApiExcludeController()
@NeutralApi()
@Controller()
export class IndexController {
  @Public()
  @Get()
  index() {
    return {
      name: PACKAGE_NAME,
      version: PACKAGE_VERSION,
      links: {
        docs: '/docs',
        openapi: '/openapi.json',
        health: '/health',
        mcp_tools: '/docs/mcp-tools',
      },
    };
  }
}
