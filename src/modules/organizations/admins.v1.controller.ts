import { Controller } from '@nestjs/common';
import { Extension } from '../../core/http/extension';
import { V1 } from '../../core/http/interfaces';
import { V1Resource } from '../../core/routes/v1-resource';
import { V1_PAGE_CAP } from '../../core/pagination/v1-page';
import type { AdminRoleView } from './admin-roles.service';
import { ADMIN_ROLE_SCHEMA, AdminRolesService } from './admin-roles.service';
import { ADMIN_SCHEMA, AdminsService, presentAdmin } from './admins.service';
import { AdminCreateDto, AdminRoleCreateDto, AdminRoleUpdateDto, AdminUpdateDto } from './dto/admins.dto';

/** /v1/admins (extension, CONVENTIONS §19, `admin-users:read|write`): the organization's administrators and their roles. */
@V1()
@Extension("lists, creates, changes or removes an organization's administrators (`{email, role, password?}`); the last owner cannot be removed or demoted.")
@V1Resource<AdminsService>({
  service: AdminsService,
  id: 'admin_id',
  scopes: 'admin-users',
  present: presentAdmin,
  schema: ADMIN_SCHEMA,
  list: { call: (s) => s.list, handler: 'list', cap: V1_PAGE_CAP.small },
  read: { call: (s) => s.get, handler: 'read' },
  create: { call: (s) => s.createByApi, handler: 'create', body: AdminCreateDto },
  update: { call: (s) => s.update, body: AdminUpdateDto },
  remove: { call: (s) => s.remove, handler: 'destroy' },
})
@Controller('v1/admins')
export class AdminsV1Controller {
  constructor(readonly admins: AdminsService) {}
}

const presentRole = (r: AdminRoleView) => r;

/** /v1/admin-roles (extension, CONVENTIONS §19, `roles:read|write`): the four built-in roles and the organization's custom roles. */
@V1()
@Extension('lists, creates, changes or deletes administrator roles (`{name, scopes}`); the built-in roles owner, admin, content-editor and reporter are read-only.')
@V1Resource<AdminRolesService>({
  service: AdminRolesService,
  id: 'name',
  scopes: 'roles',
  present: presentRole,
  schema: ADMIN_ROLE_SCHEMA,
  list: { call: (s) => s.list, handler: 'list', cap: V1_PAGE_CAP.small },
  read: { call: (s) => s.get, handler: 'read' },
  create: { call: (s) => s.create, body: AdminRoleCreateDto },
  update: { call: (s) => s.update, body: AdminRoleUpdateDto },
  remove: { call: (s) => s.remove, handler: 'destroy' },
})
@Controller('v1/admin-roles')
export class AdminRolesV1Controller {
  constructor(readonly roles: AdminRolesService) {}
}
