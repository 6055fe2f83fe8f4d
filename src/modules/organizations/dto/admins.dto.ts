import { Required, StrList, V1Str } from '../../../core/http/v1-rules';

/** POST /v1/admins (extension, CONVENTIONS §19): `{email, role, password?}`; without a password the administrator signs in only through the organization's identity provider. */
export class AdminCreateDto {
  @V1Str({ required: true, min: 1, max: 320 }) email: string;
  @V1Str({ required: true, min: 1, max: 63 }) role: string;
  @V1Str({ min: 1, max: 1024 }) password?: string;
}

/** PUT/PATCH /v1/admins/{admin_id}: the members given change (both partial). */
export class AdminUpdateDto {
  @V1Str({ min: 1, max: 320 }) email?: string;
  @V1Str({ min: 1, max: 63 }) role?: string;
  @V1Str({ min: 1, max: 1024 }) password?: string;
}

/** POST /v1/admin-roles: `{name, scopes: [codename...]}`. */
export class AdminRoleCreateDto {
  @V1Str({ required: true, min: 1, max: 63 }) name: string;
  @Required() @StrList(64, 200) scopes: string[];
}

/** PUT/PATCH /v1/admin-roles/{name}: the new scope set (the name is the path's). */
export class AdminRoleUpdateDto {
  @StrList(64, 200) scopes?: string[];
}
