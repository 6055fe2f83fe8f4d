import { Controller } from '@nestjs/common';
import { Extension } from '../../core/http/extension';
import { V1 } from '../../core/http/interfaces';
import { V1Resource } from '../../core/routes/v1-resource';
import { SignupFieldCreateDto, SignupFieldPatchDto } from './dto/signup-field.dto';
import { SignupFieldAdminService } from './signup-field-admin.service';

/**
 * POST /v1/domains/{domain_name}/signup-fields, PUT/PATCH/DELETE .../signup-fields/{signup_field_id}
 * (CONVENTIONS §15, `signup-fields:write`): the published SignupField as read and written.
 */
@V1()
@Extension('creates, updates (PUT: label required; PATCH: any member) or deletes a signup field of the domain; answers the SignupField.')
@V1Resource<SignupFieldAdminService>({
  service: SignupFieldAdminService,
  at: 'signup-fields',
  id: 'signup_field_id',
  scopes: 'signup-fields',
  present: (r) => r,
  create: { call: (s) => s.create, handler: 'createField', body: SignupFieldCreateDto },
  update: { call: (s) => s.update, handler: 'updateField', body: SignupFieldCreateDto, patchBody: SignupFieldPatchDto },
  remove: { call: (s) => s.remove, handler: 'destroyField' },
})
@Controller('v1/domains/:domain_name')
export class SignupFieldsAdminV1Controller {
  constructor(readonly fields: SignupFieldAdminService) {}
}
