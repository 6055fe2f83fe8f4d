import { Body, Controller, Get, Param, Post, Query, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Auth, Scopes } from '../../core/auth/decorators';
import type { Principal } from '../../core/auth/principal';
import { AppConfig } from '../../core/config/config';
import { absoluteUrl, requestBaseUrl } from '../../core/http/base-url';
import { parseV1Page, V1_PAGE_CAP, v1List } from '../../core/pagination/v1-page';
import { DomainsService } from '../domains/domains.service';
import { presentSignupValue } from './domain-users.service';
import { BulkSignupFieldsDto, SignupFieldValueCreateDto } from './dto/domain-user.dto';
import { SignupFieldsService } from './signup-fields.service';
import { V1 } from '../../core/http/interfaces';

/** /v1/domains/{domain_name}/signup-fields and users/{user_id}/signup-fields[-bulk] (scopes signup-fields:*). */
@V1()
@Controller('v1/domains/:domain_name')
export class SignupFieldsV1Controller {
  constructor(
    private readonly domains: DomainsService,
    private readonly fields: SignupFieldsService,
    private readonly config: AppConfig,
  ) {}

  @Get('signup-fields')
  @Scopes('signup-fields:read')
  async listFields(@Auth() p: Principal, @Param('domain_name') name: string, @Query() query: Record<string, unknown>, @Req() req: FastifyRequest) {
    const page = parseV1Page(query, V1_PAGE_CAP.small);
    const domain = await this.domains.requireByName(p, name);
    const { rows, count } = await this.fields.listFields(p, domain, page);
    return v1List(rows, count, page, requestBaseUrl(this.config, req), req.url);
  }

  @Get('users/:user_id/signup-fields')
  @Scopes('signup-fields:read')
  async listValues(@Auth() p: Principal, @Param('domain_name') name: string, @Param('user_id') userId: string, @Query() query: Record<string, unknown>, @Req() req: FastifyRequest) {
    const page = parseV1Page(query, V1_PAGE_CAP.large);
    const domain = await this.domains.requireByName(p, name);
    const { rows, count } = await this.fields.listValues(p, domain, userId, page);
    return v1List(rows.map(presentSignupValue), count, page, requestBaseUrl(this.config, req), req.url);
  }

  @Post('users/:user_id/signup-fields')
  @Scopes('signup-fields:write')
  async createValue(@Auth() p: Principal, @Param('domain_name') name: string, @Param('user_id') userId: string, @Body() dto: SignupFieldValueCreateDto) {
    const domain = await this.domains.requireByName(p, name);
    return presentSignupValue(await this.fields.setValue(p, domain, userId, dto.signup_field.id, dto.value));
  }

  @Get('users/:user_id/signup-fields/:signup_field_id')
  @Scopes('signup-fields:read')
  async readValue(@Auth() p: Principal, @Param('domain_name') name: string, @Param('user_id') userId: string, @Param('signup_field_id') fieldId: string) {
    const domain = await this.domains.requireByName(p, name);
    return presentSignupValue(await this.fields.getValue(p, domain, userId, fieldId));
  }

  @Post('users/:user_id/signup-fields-bulk')
  @Scopes('signup-fields:write')
  async bulk(@Auth() p: Principal, @Param('domain_name') name: string, @Param('user_id') userId: string, @Body() dto: BulkSignupFieldsDto, @Req() req: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    const domain = await this.domains.requireByName(p, name);
    const changed = await this.fields.bulk(p, domain, userId, dto.signup_fields);
    const location = absoluteUrl(requestBaseUrl(this.config, req), `/v1/domains/${encodeURIComponent(domain.name)}/users/${encodeURIComponent(userId)}/signup-fields`);
    reply.status(201).header('Location', location);
    return { signup_fields: changed.map(presentSignupValue) };
  }
}
