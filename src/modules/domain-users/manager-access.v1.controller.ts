import { Body, Controller, Param } from '@nestjs/common';
import { Auth } from '../../core/auth/decorators';
import type { Principal } from '../../core/auth/principal';
import { V1 } from '../../core/http/interfaces';
import { ScopedRoutes } from '../../core/routes/scoped-routes';
import { DomainsService } from '../domains/domains.service';
import { ManagerAccessRequest } from './dto/manager-access.dto';
import { ManagerAccessService, presentManagerAccess } from './manager-access.service';

const route = ScopedRoutes('students');

/** PUT (grant or replace) and DELETE (revoke) /v1/domains/{domain_name}/users/{user_id}/manager-access (scopes students:write). */
@V1()
@Controller('v1/domains/:domain_name/users/:user_id/manager-access')
export class ManagerAccessV1Controller {
  constructor(
    private readonly domains: DomainsService,
    private readonly access: ManagerAccessService,
  ) {}

  @route.put()
  async update(@Auth() p: Principal, @Param('domain_name') name: string, @Param('user_id') userId: string, @Body() dto: ManagerAccessRequest) {
    const domain = await this.domains.requireByName(p, name);
    return presentManagerAccess(await this.access.put(p, domain, userId, dto));
  }

  @route.delete(undefined, 204)
  async destroy(@Auth() p: Principal, @Param('domain_name') name: string, @Param('user_id') userId: string): Promise<void> {
    const domain = await this.domains.requireByName(p, name);
    await this.access.remove(p, domain, userId);
  }
}
