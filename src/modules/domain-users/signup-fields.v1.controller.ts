import { Body, Controller, Param, Query, Res } from '@nestjs/common';
import { ApiQuery } from '@nestjs/swagger';
import { V1_UPDATED_SINCE_QUERY, v1UpdatedSince } from '../../core/pagination/updated-since';
import type { FastifyReply } from 'fastify';
import { Auth } from '../../core/auth/decorators';
import type { Principal } from '../../core/auth/principal';
import { absoluteUrl, BaseUrl } from '../../core/http/base-url';
import { ScopedRoutes } from '../../core/routes/scoped-routes';
import { Paged, V1_PAGE_CAP, V1Page } from '../../core/pagination/v1-page';
import { DomainsService } from '../domains/domains.service';
import { presentBulkSignupInfo, presentSignupValue } from './domain-users.presenter';
import { BulkSignupFieldsDto, SignupFieldValueCreateDto } from './dto/domain-user.dto';
import { SignupFieldsService } from './signup-fields.service';
import { V1 } from '../../core/http/interfaces';

const route = ScopedRoutes('signup-fields');

/** /v1/domains/{domain_name}/signup-fields and users/{user_id}/signup-fields[-bulk] (scopes signup-fields:*). */
@V1()
@Controller('v1/domains/:domain_name')
export class SignupFieldsV1Controller {
  constructor(
    private readonly domains: DomainsService,
    private readonly fields: SignupFieldsService,
  ) {}

  @route.get('signup-fields')
  @ApiQuery(V1_UPDATED_SINCE_QUERY)
  async listFields(@Auth() p: Principal, @Param('domain_name') name: string, @Query() query: Record<string, unknown>, @Paged(V1_PAGE_CAP.small) page: V1Page) {
    const updatedSince = v1UpdatedSince(query);
    const { rows, count } = await this.fields.listFields(p, await this.domains.requireByName(p, name), page, updatedSince);
    return page.list(rows, count);
  }

  @route.get('users/:user_id/signup-fields')
  @ApiQuery(V1_UPDATED_SINCE_QUERY)
  async listValues(@Auth() p: Principal, @Param('domain_name') name: string, @Param('user_id') userId: string, @Query() query: Record<string, unknown>, @Paged(V1_PAGE_CAP.large) page: V1Page) {
    const updatedSince = v1UpdatedSince(query);
    const { rows, count } = await this.fields.listValues(p, await this.domains.requireByName(p, name), userId, page, updatedSince);
    return page.list(rows.map(presentSignupValue), count);
  }

  @route.post('users/:user_id/signup-fields')
  async createValue(@Auth() p: Principal, @Param('domain_name') name: string, @Param('user_id') userId: string, @Body() dto: SignupFieldValueCreateDto) {
    const domain = await this.domains.requireByName(p, name);
    return presentSignupValue(await this.fields.setValue(p, domain, userId, dto.signup_field.id, dto.value));
  }

  @route.get('users/:user_id/signup-fields/:signup_field_id')
  async readValue(@Auth() p: Principal, @Param('domain_name') name: string, @Param('user_id') userId: string, @Param('signup_field_id') fieldId: string) {
    const domain = await this.domains.requireByName(p, name);
    return presentSignupValue(await this.fields.getValue(p, domain, userId, fieldId));
  }

  @route.post('users/:user_id/signup-fields-bulk')
  async bulk(
    @Auth() p: Principal,
    @Param('domain_name') name: string,
    @Param('user_id') userId: string,
    @Body() dto: BulkSignupFieldsDto,
    @BaseUrl() base: string,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const domain = await this.domains.requireByName(p, name);
    const changed = await this.fields.bulk(p, domain, userId, dto.signup_fields);
    const location = absoluteUrl(base, `/v1/domains/${encodeURIComponent(domain.name)}/users/${encodeURIComponent(userId)}/signup-fields`);
    reply.status(201).header('Location', location);
    return presentBulkSignupInfo(changed);
  }
}
