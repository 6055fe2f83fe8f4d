import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Put, Query } from '@nestjs/common';
import { Auth, Scopes } from '../../core/auth/decorators';
import type { Principal } from '../../core/auth/principal';
import { strParam } from '../../core/http/v1-rules';
import { V1_PAGE_CAP, Paged, V1Page } from '../../core/pagination/v1-page';
import { V1EmailDomainRulePatchDto, V1GroupCreateDto, V1GroupPatchDto, V1GroupUpdateDto } from './dto/v1-group.dto';
import { presentV1Group } from './groups.v1.presenter';
import { GroupsV1Service } from './groups.v1.service';
import { V1 } from '../../core/http/interfaces';

/** /v1/groups and /v1/groups/{group_id}/email-domain-rules (scopes student-groups:*). */
@V1()
@Controller('v1/groups')
export class GroupsV1Controller {
  constructor(private readonly groups: GroupsV1Service) {}

  @Get()
  @Scopes('student-groups:read')
  async list(@Auth() p: Principal, @Query() query: Record<string, unknown>, @Paged(V1_PAGE_CAP.large) page: V1Page) {
    // `name` is an exact, case-sensitive match; an empty value is no filter (as django-filter does)
    const { rows, counts, options, count } = await this.groups.list(p, page, strParam(query, 'name') || undefined);
    return page.list(rows.map((g) => presentV1Group(g, counts.get(g.id) ?? 0, options)), count);
  }

  @Post()
  @Scopes('student-groups:write')
  async create(@Auth() p: Principal, @Body() dto: V1GroupCreateDto) {
    const { group, userCount, options } = await this.groups.create(p, dto);
    return presentV1Group(group, userCount, options);
  }

  @Get(':group_id')
  @Scopes('student-groups:read')
  async read(@Auth() p: Principal, @Param('group_id') id: string) {
    const { group, userCount, options } = await this.groups.get(p, id);
    return presentV1Group(group, userCount, options);
  }

  @Put(':group_id')
  @Scopes('student-groups:write')
  async update(@Auth() p: Principal, @Param('group_id') id: string, @Body() dto: V1GroupUpdateDto) {
    const { group, userCount, options } = await this.groups.update(p, id, dto);
    return presentV1Group(group, userCount, options);
  }

  @Patch(':group_id')
  @Scopes('student-groups:write')
  async partialUpdate(@Auth() p: Principal, @Param('group_id') id: string, @Body() dto: V1GroupPatchDto) {
    const { group, userCount, options } = await this.groups.update(p, id, dto);
    return presentV1Group(group, userCount, options);
  }

  @Delete(':group_id')
  @HttpCode(204)
  @Scopes('student-groups:write')
  async remove(@Auth() p: Principal, @Param('group_id') id: string) {
    await this.groups.remove(p, id);
  }

  @Get(':group_id/email-domain-rules')
  @Scopes('student-groups:read')
  async emailDomains(@Auth() p: Principal, @Param('group_id') id: string) {
    return { email_domains: await this.groups.emailDomains(p, id) };
  }

  @Patch(':group_id/email-domain-rules')
  @Scopes('student-groups:write')
  async patchEmailDomains(@Auth() p: Principal, @Param('group_id') id: string, @Body() dto: V1EmailDomainRulePatchDto) {
    return this.groups.patchEmailDomains(p, id, dto);
  }
}
