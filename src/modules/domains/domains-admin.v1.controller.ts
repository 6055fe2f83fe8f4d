import { Controller } from '@nestjs/common';
import { Extension } from '../../core/http/extension';
import { V1 } from '../../core/http/interfaces';
import { V1Resource } from '../../core/routes/v1-resource';
import { DomainsService } from './domains.service';
import { DomainV1Schema, presentDomainV1 } from './domains.presenter';
import { DomainCreateDto } from './dto/domain-create.dto';

/**
 * POST /v1/domains and DELETE /v1/domains/{domain_name}: administrative writes beyond the published
 * document (CONVENTIONS §15, `domains:write`); the answer is the published Domain.
 */
@V1()
@Extension('creates a domain of the organization (201, the Domain) or deletes one that has no learners (204; 409 for the last domain or one with domain users or enrollments).')
@V1Resource<DomainsService>({
  service: DomainsService,
  id: 'domain_name',
  scopes: 'domains',
  present: presentDomainV1,
  schema: DomainV1Schema,
  create: { call: (s) => s.createV1, handler: 'create', body: DomainCreateDto },
  remove: { call: (s) => s.removeV1, handler: 'destroy' },
})
@Controller('v1/domains')
export class DomainsAdminV1Controller {
  constructor(readonly domains: DomainsService) {}
}
