import { Body, Controller, Get, Param, Patch, Query } from '@nestjs/common';
import type { Static } from '@sinclair/typebox';
import { Auth, Scopes } from '../../core/auth/decorators';
import type { Principal } from '../../core/auth/principal';
import { V1 } from '../../core/http/interfaces';
import { V1Resource } from '../../core/routes/v1-resource';
import { strParam } from '../../core/http/v1-rules';
import { ApiQuery } from '@nestjs/swagger';
import { V1_UPDATED_SINCE_QUERY, v1UpdatedSince } from '../../core/pagination/updated-since';
import { V1_PAGE_CAP, Paged, V1Page } from '../../core/pagination/v1-page';
import { V1EmailDomainRulePatchDto, V1GroupCreateDto, V1GroupPatchDto, V1GroupUpdateDto } from './dto/v1-group.dto';
import { EmailDomainRulePatchSchema, EmailDomainRulesSchema, presentV1Group } from './groups.v1.presenter';
import { GroupsV1Service, GroupView } from './groups.v1.service';

/**
 * /v1/groups and /v1/groups/{group_id}/email-domain-rules (scopes student-groups:*). PUT needs
 * `name`; PATCH changes only what it is sent.
 */
@V1()
@V1Resource<GroupsV1Service>({
  service: GroupsV1Service,
  id: 'group_id',
  scopes: 'student-groups',
  present: (v: GroupView) => presentV1Group(v.group, v.userCount, v.options),
  create: { call: (s) => s.create, body: V1GroupCreateDto },
  read: { call: (s) => s.get, handler: 'read' },
  update: { call: (s) => s.update, body: V1GroupUpdateDto, patchBody: V1GroupPatchDto },
  remove: { call: (s) => s.remove },
})
@Controller('v1/groups')
export class GroupsV1Controller {
  constructor(readonly groups: GroupsV1Service) {}

  @Get()
  @Scopes('student-groups:read')
  @ApiQuery(V1_UPDATED_SINCE_QUERY)
  async list(@Auth() p: Principal, @Query() query: Record<string, unknown>, @Paged(V1_PAGE_CAP.large) page: V1Page) {
    // `name` is an exact, case-sensitive match; an empty value is no filter (as django-filter does)
    const { rows, counts, options, count } = await this.groups.list(p, page, strParam(query, 'name') || undefined, v1UpdatedSince(query));
    return page.list(
      rows.map((g) => presentV1Group(g, counts.get(g.id) ?? 0, options)),
      count,
    );
  }

  @Get(':group_id/email-domain-rules')
  @Scopes('student-groups:read')
  async emailDomains(@Auth() p: Principal, @Param('group_id') id: string): Promise<Static<typeof EmailDomainRulesSchema>> {
    return { email_domains: await this.groups.emailDomains(p, id) };
  }

  @Patch(':group_id/email-domain-rules')
  @Scopes('student-groups:write')
  async patchEmailDomains(@Auth() p: Principal, @Param('group_id') id: string, @Body() dto: V1EmailDomainRulePatchDto): Promise<Static<typeof EmailDomainRulePatchSchema>> {
    return this.groups.patchEmailDomains(p, id, dto);
  }
}
