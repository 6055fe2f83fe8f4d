import { Controller } from '@nestjs/common';
import { V1 } from '../../core/http/interfaces';
import { ApiQuery } from '@nestjs/swagger';
import { OnHandlers } from '../../core/http/v1-controller-kit';
import { V1_UPDATED_SINCE_QUERY } from '../../core/pagination/updated-since';
import { V1GroupAccessCodePoolCreateDto } from './dto/v1-group.dto';
import { GroupLinksV1Service } from './group-links.v1.service';
import { GroupLinkRoutes } from './group-users.v1.controller';
import { presentGroupAccessCodePool } from './groups.v1.presenter';

/** /v1/groups/{group_id}/access-code-pools: access code pools assigned to a group. */
@V1()
@OnHandlers({ list: [ApiQuery(V1_UPDATED_SINCE_QUERY)] })
@GroupLinkRoutes('pools', 'access_code_pool_id', presentGroupAccessCodePool, V1GroupAccessCodePoolCreateDto)
@Controller('v1/groups/:group_id/access-code-pools')
export class GroupAccessCodePoolsV1Controller {
  constructor(readonly links: GroupLinksV1Service) {}
}
