import { Type, type Static } from '@sinclair/typebox';
import { omitEmpty } from '../../core/http/optional-members';
import { encodeId } from '../../core/ids/ids';
import { DateTime, declaredV1, ext, nullable, PublicId } from '../../core/openapi/declared-shape';
import { fullName } from '../students/students.presenter';
import type { Group } from './group.entity';
import type { OptionInfo } from './groups.v1.service';
import { type SignUpFieldRule, type GroupUserRow, type GroupPoolRow, type UserGroupRow } from './groups.v1.shape';
export { type SignUpFieldRule, type GroupUserRow, type GroupPoolRow, type UserGroupRow } from './groups.v1.shape';

/**
 * The published /v1 Group (and GroupUpdate), declared once (core/openapi/declared-shape.ts); `id`
 * is the same opaque id /v2 uses. No rule: `sign_up_field_rule` left out (optional, not nullable).
 */
export const GroupSchema = declaredV1(
  ['Group', 'GroupUpdate'],
  Type.Object({
    id: PublicId(),
    name: Type.String(),
    user_count: Type.Integer(),
    discount_percent: nullable(Type.Integer()),
    group_category_id: nullable(PublicId()),
    sign_up_field_rule: Type.Optional(
      Type.Object({
        enforce: Type.Boolean(),
        require_match_all: Type.Boolean(),
        options: Type.Array(Type.Object({ id: PublicId(), value: Type.Optional(Type.String()), domain_name: Type.Optional(Type.String()) })),
      }),
    ),
    rule_email_domains: Type.Array(Type.String()),
  }),
);
export type GroupV1 = Static<typeof GroupSchema>;

export function presentV1Group(g: Group, userCount: number, options: OptionInfo = new Map()): GroupV1 {
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

/**
 * SignUpFieldRule: options as SignupFieldOptionLink `{id, value, domain_name}`; `value` and
 * `domain_name` left out when the option no longer exists (optional, not nullable).
 */
function presentRule(raw: unknown, info: OptionInfo): GroupV1['sign_up_field_rule'] | null {
  if (!raw || typeof raw !== 'object') return null;
  const r = raw as Partial<SignUpFieldRule>;
  return {
    enforce: r.enforce === true,
    require_match_all: r.require_match_all === true,
    options: Array.isArray(r.options)
      ? r.options.map((o) => {
          const id = String(o.id);
          const known = info.get(id);
          return omitEmpty({ id, value: known?.value ?? null, domain_name: known?.domain_name ?? null }, ['value', 'domain_name']);
        })
      : [],
  };
}

/** The published /v1 GroupUser: the user (ReadOnlyUser, `full_name` an extension) and when they joined the group. */
export const GroupUserSchema = declaredV1(
  'GroupUser',
  Type.Object({
    user: Type.Object({ id: PublicId(), email: Type.String({ format: 'email' }), first_name: Type.String(), last_name: Type.String(), full_name: Type.String(ext()) }),
    created_at: DateTime(),
  }),
);
export type GroupUserV1 = Static<typeof GroupUserSchema>;

export function presentGroupUser(r: GroupUserRow): GroupUserV1 {
  return {
    user: { id: encodeId('student', r.user_id), email: r.email, first_name: r.first_name, last_name: r.last_name, full_name: fullName(r.first_name, r.last_name) },
    created_at: new Date(r.created_at).toISOString(),
  };
}

/** The published /v1 GroupAccessCodePool: `{access_code_pool {id, name}, created_at}`. */
export const GroupAccessCodePoolSchema = declaredV1('GroupAccessCodePool', Type.Object({ access_code_pool: Type.Object({ id: PublicId(), name: Type.String() }), created_at: DateTime() }));

export function presentGroupAccessCodePool(r: GroupPoolRow): Static<typeof GroupAccessCodePoolSchema> {
  return {
    access_code_pool: { id: encodeId('accessCodePool', r.access_code_pool_id), name: r.name },
    created_at: new Date(r.created_at).toISOString(),
  };
}

/** The published /v1 GroupMembership of /v1/users/{id}/groups: `id` is the group's id (a membership has no id of its own). */
export const GroupMembershipSchema = declaredV1('GroupMembership', Type.Object({ id: PublicId(), group: Type.Object({ id: PublicId(), name: Type.String() }), joined_at: DateTime() }));

export function presentUserGroup(r: UserGroupRow): Static<typeof GroupMembershipSchema> {
  const id = encodeId('group', r.group_id);
  return { id, group: { id, name: r.name }, joined_at: new Date(r.created_at).toISOString() };
}

/** The published EmailDomainRuleResponse: a group's e-mail domain rules. */
export const EmailDomainRulesSchema = declaredV1('EmailDomainRuleResponse', Type.Object({ email_domains: Type.Array(Type.String()) }));

/** The published EmailDomainRulePatch answer: what the request added and removed, and the resulting rules (an extension). */
export const EmailDomainRulePatchSchema = declaredV1(
  'EmailDomainRulePatch',
  Type.Object({ add: Type.Array(Type.String()), remove: Type.Array(Type.String()), email_domains: Type.Array(Type.String(), ext({ description: 'the rules after the change' })) }),
);

/** The published /v1 GroupCategory: `{id, name}`. */
export const GroupCategorySchema = declaredV1('GroupCategory', Type.Object({ id: PublicId(), name: Type.String() }));

export function presentGroupCategory(r: { id: string; name: string }): Static<typeof GroupCategorySchema> {
  return { id: encodeId('groupCategory', r.id), name: r.name };
}
