import { Controller } from '@nestjs/common';
import { V1 } from '../../core/http/interfaces';
import { V1Resource } from '../../core/routes/v1-resource';
import { V1_PAGE_CAP } from '../../core/pagination/v1-page';
import { DomainsService } from './domains.service';
import { presentDomainV1 } from './domains.presenter';
import { DomainUpdateDto } from './dto/domain-update.dto';

/** /v1/domains: list, read, update (PUT and PATCH alike); create and delete are extensions (domains-admin.v1.controller.ts) and CLI commands. */
@V1()
@V1Resource<DomainsService>({
  service: DomainsService,
  id: 'domain_name',
  scopes: 'domains',
  present: presentDomainV1,
  list: { call: (s) => s.listV1, handler: 'list', cap: V1_PAGE_CAP.small },
  read: { call: (s) => s.requireByName, handler: 'read' },
  update: { call: (s) => s.updateV1, handler: 'update', body: DomainUpdateDto },
})
@Controller('v1/domains')
export class DomainsV1Controller {
  constructor(readonly domains: DomainsService) {}
}
