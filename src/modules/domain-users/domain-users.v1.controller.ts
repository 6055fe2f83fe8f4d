import { Body, Controller, Param, Query, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { Auth } from '../../core/auth/decorators';
import type { Principal } from '../../core/auth/principal';
import { ScopedRoutes } from '../../core/routes/scoped-routes';
import { Paged, V1_PAGE_CAP, V1Page } from '../../core/pagination/v1-page';
import type { Domain } from '../domains/domain.entity';
import { DomainsService } from '../domains/domains.service';
import { boolParam, paramError, strParam } from '../../core/http/v1-rules';
import { DomainUserInvitesService } from './domain-user-invites.service';
import { type DomainUser, domainUserJson, presentDomainUser } from './domain-users.presenter';
import { DomainUsersService, DomainUserFilters, DomainUserRow } from './domain-users.service';
import { BulkDomainUsersDto, DomainUserCreateDto, DomainUserUpdateDto, InviteCreateDto } from './dto/domain-user.dto';
import { V1 } from '../../core/http/interfaces';
import { JSON_TYPE } from '../../core/pagination/cursor-page';
import { ApiQuery } from '@nestjs/swagger';
import { V1_UPDATED_SINCE_QUERY, v1UpdatedSince } from '../../core/pagination/updated-since';
import { Type, type Static } from '@sinclair/typebox';
import { ApiOkResponse } from '@nestjs/swagger';
import { ext, openApi } from '../../core/openapi/declared-shape';

/**
 * What POST users/bulk-create answers: how many users were accepted and joined. The published
 * operation names DomainUserDetail (every member optional there); /openapi.json serves this instead,
 * since DomainUserDetail is served as the domain user's declaration (docs/decisions/openapi.md).
 */
const BulkCreateAnswerSchema = Type.Object({
  detail: Type.String({ description: 'How many users were accepted.' }),
  joined: Type.Integer(ext({ minimum: 0, description: 'Users added to the domain.' })),
  already_members: Type.Integer(ext({ minimum: 0, description: 'Users that were members already.' })),
});

const route = ScopedRoutes('students');

/** The Content-Type Fastify gives a serialized object (the list answers its JSON text). */

/** /v1/domains/{domain_name}/users and their invites (scopes students:*). */
@V1()
@Controller('v1/domains/:domain_name/users')
export class DomainUsersV1Controller {
  constructor(
    private readonly domains: DomainsService,
    private readonly users: DomainUsersService,
    private readonly invites: DomainUserInvitesService,
  ) {}

  private async present(p: Principal, domain: Domain, rows: DomainUserRow[], withSignup: boolean) {
    const [codes, values] = await Promise.all([
      this.users.accessCodes(
        p,
        rows.map((r) => r.access_code_id),
      ),
      withSignup
        ? this.users.signupValues(
            p,
            domain,
            rows.map((r) => r.user_id),
          )
        : Promise.resolve(undefined),
    ]);
    return rows.map((r) => presentDomainUser(r, codes, values));
  }

  @route.get()
  @ApiQuery(V1_UPDATED_SINCE_QUERY)
  async list(
    @Auth() p: Principal,
    @Param('domain_name') name: string,
    @Query() query: Record<string, unknown>,
    @Paged(V1_PAGE_CAP.large) page: V1Page,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<string> {
    const accessCode = strParam(query, 'access_code');
    if (accessCode !== undefined && accessCode !== '' && accessCode.toLowerCase() !== 'null') throw paramError('access_code', 'Only the value "null" is supported.');
    const s = (n: string) => {
      const v = strParam(query, n);
      return v === '' ? undefined : v;
    };
    const filters: DomainUserFilters = {
      email: s('user__email'),
      firstName: s('user__first_name'),
      lastName: s('user__last_name'),
      active: boolParam(query, 'active'),
      accessCodeNull: accessCode !== undefined && accessCode !== '',
      accessCodeCode: s('access_code__code'),
      accessCodeId: s('access_code__id'),
      accessCodePoolId: s('access_code__pool__id'),
      signupFieldId: s('signup_field_id'),
      signupFieldLabel: s('signup_field_label'),
      signupFieldValue: s('signup_field_value'),
      updatedSince: v1UpdatedSince(query),
    };
    const withSignup = boolParam(query, 'include_signup_field_data') ?? false;
    const domain = await this.domains.requireByName(p, name);
    const { rows, count } = await this.users.list(p, domain, page, filters);
    const [codes, values] = await Promise.all([
      this.users.accessCodes(
        p,
        rows.map((r) => r.access_code_id),
      ),
      withSignup
        ? this.users.signupValues(
            p,
            domain,
            rows.map((r) => r.user_id),
          )
        : Promise.resolve(undefined),
    ]);
    const json = page.listJson(
      rows.map((r) => domainUserJson(r, codes, values)),
      count,
    );
    reply.header('Content-Type', JSON_TYPE);
    return json;
  }

  @route.post()
  async create(@Auth() p: Principal, @Param('domain_name') name: string, @Body() dto: DomainUserCreateDto, @Res({ passthrough: true }) reply: FastifyReply) {
    const domain = await this.domains.requireByName(p, name);
    const { row, created, loginToken } = await this.users.create(p, domain, dto);
    reply.status(created ? 201 : 200);
    const out: DomainUser = (await this.present(p, domain, [row], true))[0];
    out.login_token = loginToken;
    return out;
  }

  /**
   * OpenAPI-only bulk create: validated as a whole, processed at once, answered 200 as the published
   * responses declare (its prose says 202 Accepted for a queued job; nothing is queued here:
   * docs/decisions/conformance.md).
   */
  @route.post('bulk-create', 200)
  @ApiOkResponse({ description: 'The users accepted', schema: openApi(BulkCreateAnswerSchema) })
  async bulkCreate(@Auth() p: Principal, @Param('domain_name') name: string, @Body() dto: BulkDomainUsersDto) {
    const domain = await this.domains.requireByName(p, name);
    const { joined, existing } = await this.users.bulkCreate(p, domain, dto.users);
    const answer: Static<typeof BulkCreateAnswerSchema> = { detail: `${dto.users.length} users accepted.`, joined, already_members: existing };
    return answer;
  }

  @route.get(':user_id')
  async read(@Auth() p: Principal, @Param('domain_name') name: string, @Param('user_id') userId: string) {
    const domain = await this.domains.requireByName(p, name);
    return (await this.present(p, domain, [await this.users.get(p, domain, userId)], true))[0];
  }

  /** PUT and PATCH: the same partial update. */
  @route.putAndPatch(':user_id')
  async update(@Auth() p: Principal, @Param('domain_name') name: string, @Param('user_id') userId: string, @Body() dto: DomainUserUpdateDto) {
    const domain = await this.domains.requireByName(p, name);
    return (await this.present(p, domain, [await this.users.update(p, domain, userId, dto)], true))[0];
  }

  @route.get(':user_id/invites')
  @ApiQuery(V1_UPDATED_SINCE_QUERY)
  async listInvites(@Auth() p: Principal, @Param('domain_name') name: string, @Param('user_id') userId: string, @Query() query: Record<string, unknown>, @Paged(V1_PAGE_CAP.large) page: V1Page) {
    const updatedSince = v1UpdatedSince(query);
    const domain = await this.domains.requireByName(p, name);
    const { rows, count } = await this.invites.listInvites(p, domain, userId, page, updatedSince);
    return page.list(rows, count);
  }

  @route.post(':user_id/invites')
  async createInvite(@Auth() p: Principal, @Param('domain_name') name: string, @Param('user_id') userId: string, @Body() dto: InviteCreateDto) {
    const domain = await this.domains.requireByName(p, name);
    return this.invites.createInvite(p, domain, userId, dto.send_email ?? true);
  }

  @route.get(':user_id/invites/:invite_id')
  async readInvite(@Auth() p: Principal, @Param('domain_name') name: string, @Param('user_id') userId: string, @Param('invite_id') inviteId: string) {
    const domain = await this.domains.requireByName(p, name);
    return this.invites.getInvite(p, domain, userId, inviteId);
  }
}
