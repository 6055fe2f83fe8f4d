import { NoBody } from '../../core/openapi/no-body';
import { Controller, Get, HttpCode } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { V1 } from '../../core/http/interfaces';

/**
 * `GET /v1/ping` (published `ping_retrieve`, CONVENTIONS §9): 200 with no body for any valid /v1
 * credential (a Bearer token, whatever its scopes, or an organization API key as Basic user
 * name); 401 `{"detail"}` without one. No @Scopes: the global guard only authenticates.
 */
@ApiTags('ping')
@V1()
@Controller('v1/ping')
export class PingV1Controller {
  @Get()
  @HttpCode(200)
  @NoBody(200, 'The credential is valid (no body)')
  ping(): void {}
}
