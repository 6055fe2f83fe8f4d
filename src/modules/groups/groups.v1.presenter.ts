import { omitEmpty } from '../../core/http/optional-members';
import { encodeId } from '../../core/ids/ids';
import { fullName } from '../students/students.presenter';
import type { Group } from './group.entity';
import type { OptionInfo } from './groups.v1.service';

/** The stored rule (`groups.sign_up_field_rule` jsonb), as written by the /v1 service. */
export interface SignUpFieldRule {
  enforce: boolean;
  require_match_all: boolean;
  options: { id: string }[];
}

/** The v1 Group (and GroupUpdate) schema; `id` is the same opaque id /v2 uses. */
export function presentV1Group(g: Group, userCount: number, options: OptionInfo = new Map()) {
  // no rule: sign_up_field_rule left out (optional, not nullable in the published Group)
  return omitEmpty(
    {
      id: encodeId('group', g.id),
      name: g.name,
      user_count: userCount,
      discount_percent: g.discountPercent ?? null,
      group_category_id: g.categoryId ? encodeId('groupCategory', g.categoryId) : null,
      sign_up_field_rule: presentRule(g.signUpFieldRule, options),
      rule_email_domains: g.ruleEmailDomains ?? [],
    },
    ['sign_up_field_rule'],
  );
}

/** SignUpFieldRule: options as SignupFieldOptionLink `{id, value, domain_name}` (null when the option no longer exists). */
function presentRule(raw: unknown, info: OptionInfo) {
  if (!raw || typeof raw !== 'object') return null;
  const r = raw as Partial<SignUpFieldRule>;
  return {
    enforce: r.enforce === true,
    require_match_all: r.require_match_all === true,
    options: Array.isArray(r.options)
      ? r.options.map((o) => {
          const id = String(o.id);
          const known = info.get(id);
          return { id, value: known?.value ?? null, domain_name: known?.domain_name ?? null };
        })
      : [],
  };
}

export interface GroupUserRow {
  user_id: string;
  email: string;
  first_name: string;
  last_name: string;
  created_at: Date;
}

/** GroupUser: `{user {id, email, first_name, last_name}, created_at}` (created_at = when the user joined the group). */
export function presentGroupUser(r: GroupUserRow) {
  return {
    user: { id: encodeId('student', r.user_id), email: r.email, first_name: r.first_name, last_name: r.last_name, full_name: fullName(r.first_name, r.last_name) },
    created_at: new Date(r.created_at).toISOString(),
  };
}

export interface GroupPoolRow {
  access_code_pool_id: string;
  name: string;
  created_at: Date;
}

/** GroupAccessCodePool: `{access_code_pool {id, name}, created_at}`. */
export function presentGroupAccessCodePool(r: GroupPoolRow) {
  return {
    access_code_pool: { id: encodeId('accessCodePool', r.access_code_pool_id), name: r.name },
    created_at: new Date(r.created_at).toISOString(),
  };
}

export interface UserGroupRow {
  group_id: string;
  name: string;
  created_at: Date;
}

/** GroupMembership of /v1/users/{id}/groups: `id` is the group's id (a membership has no id of its own). */
export function presentUserGroup(r: UserGroupRow) {
  const id = encodeId('group', r.group_id);
  return { id, group: { id, name: r.name }, joined_at: new Date(r.created_at).toISOString() };
}

/** GroupCategory: `{id, name}`. */
export function presentGroupCategory(r: { id: string; name: string }) {
  return { id: encodeId('groupCategory', r.id), name: r.name };
}
