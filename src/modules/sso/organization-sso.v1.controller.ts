import { Body, Controller, Delete, Get, HttpCode, Put } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { Auth, Scopes } from '../../core/auth/decorators';
import type { Principal } from '../../core/auth/principal';
import { Extension } from '../../core/http/extension';
import { V1 } from '../../core/http/interfaces';
import { openApi } from '../../core/openapi/declared-shape';
import { SsoConfigSchema, SsoConfigService } from './sso-config.service';

/** /v1/organization/sso (extension, CONVENTIONS §19, `organization:read|write`): the organization's identity provider for administrator sign-in. */
@V1()
@ApiTags('v1 organization')
@Extension("reads, sets or removes the organization's identity provider for administrator sign-in (OIDC or SAML); the client secret is never returned.")
@Controller('v1/organization/sso')
export class OrganizationSsoV1Controller {
  constructor(private readonly sso: SsoConfigService) {}

  @Get()
  @Scopes('organization:read')
  @ApiOkResponse({ description: "The organization's identity provider", schema: openApi(SsoConfigSchema) })
  read(@Auth() p: Principal) {
    return this.sso.get(p);
  }

  @Put()
  @Scopes('organization:write')
  @ApiOkResponse({ description: 'The identity provider as set', schema: openApi(SsoConfigSchema) })
  update(@Auth() p: Principal, @Body() body: unknown) {
    return this.sso.put(p, body);
  }

  @Delete()
  @HttpCode(204)
  @Scopes('organization:write')
  async destroy(@Auth() p: Principal) {
    await this.sso.remove(p);
  }
}
