import { Type, type Static } from '@sinclair/typebox';
import { compileSerializer, DateTime, declaredV1, ext, nullable, PublicId } from '../../core/openapi/declared-shape';
import { isoOf } from '../../core/database/pool-reads';
import { cachedPublicId, encodeId } from '../../core/ids/ids';
import { fullName } from '../students/students.presenter';
import type { AccessCodeInfo, DomainUserListRow, DomainUserRow, SignupValue } from './domain-users.service';

/** The published UserSignupFieldValue (a user's value of one signup field), declared once (core/openapi/declared-shape.ts). */
export const UserSignupFieldValueSchema = declaredV1('UserSignupFieldValue', Type.Object({ signup_field: Type.Object({ id: PublicId(), label: Type.String() }), value: Type.String() }));
export type UserSignupFieldValueV1 = Static<typeof UserSignupFieldValueSchema>;

export function presentSignupValue(v: SignupValue): UserSignupFieldValueV1 {
  return { signup_field: { id: encodeId('signupField', v.field_id), label: v.label }, value: v.value };
}

/**
 * The signup-fields-bulk answer: the values that were new or changed, under `signup_fields` (the
 * published BulkUserSignupInfo names the list `results`; the resource reference wins:
 * docs/decisions/v1-catalog.md). `results` is declared as published and never written.
 */
export const BulkSignupInfoSchema = declaredV1(
  'BulkUserSignupInfo',
  Type.Object({
    results: Type.Optional(Type.Array(UserSignupFieldValueSchema, { description: 'Not written: the list is `signup_fields`.' })),
    signup_fields: Type.Array(UserSignupFieldValueSchema, ext({ description: 'The values that were new or changed.' })),
  }),
);

export const presentBulkSignupInfo = (values: SignupValue[]): Static<typeof BulkSignupInfoSchema> => ({ signup_fields: values.map(presentSignupValue) });

/**
 * DomainUserListItem, DomainUserDetail, DomainUserCreate and DomainUserUpdate of the published /v1
 * document: one shape, declared once (core/openapi/declared-shape.ts). The user as an event body's
 * (event-user.ts) + `full_name`; `access_code` left out for a member who joined without one, and its
 * `pool` for a code without one (optional, not nullable); `signup_fields` on the single reads and
 * writes, and on the list when asked for; `login_token` in the create answer only.
 */
export const DomainUserSchema = declaredV1(
  ['DomainUserListItem', 'DomainUserDetail', 'DomainUserCreate', 'DomainUserUpdate'],
  Type.Object({
    user: Type.Object({ id: PublicId(), email: Type.String({ format: 'email' }), first_name: Type.String(), last_name: Type.String(), full_name: Type.String() }),
    active: Type.Boolean(),
    marketing_optin: nullable(Type.Boolean()),
    enrolled_at: DateTime(),
    expires_at: nullable(DateTime()),
    access_code: Type.Optional(Type.Object({ id: PublicId(), code: Type.String(), pool: Type.Optional(Type.Object({ id: PublicId(), name: Type.String() })) })),
    signup_fields: Type.Optional(Type.Array(UserSignupFieldValueSchema)),
    login_token: Type.Optional(Type.String()),
  }),
);
export type DomainUser = Static<typeof DomainUserSchema>;

/** The JSON text of a domain user (compiled from DomainUserSchema): a page writes up to 1,000. */
export const domainUserSerializer = compileSerializer(DomainUserSchema);

/**
 * A domain user from its row (timestamps Dates, or pg's text in a list row). A page of 1,000 members
 * is presented per request: the public ids are remembered per uuid (cachedPublicId).
 */
export function presentDomainUser(r: DomainUserRow | DomainUserListRow, codes: Map<string, AccessCodeInfo>, values?: Map<string, SignupValue[]>): DomainUser {
  const code = r.access_code_id ? codes.get(r.access_code_id) : undefined;
  const out: DomainUser = {
    user: { id: cachedPublicId('student', r.user_id), email: r.email, first_name: r.first_name, last_name: r.last_name, full_name: fullName(r.first_name, r.last_name) },
    active: r.active,
    marketing_optin: r.marketing_optin,
    enrolled_at: isoOf(r.enrolled_at),
    expires_at: r.expires_at ? isoOf(r.expires_at) : null,
  };
  if (code) {
    out.access_code = { id: encodeId('accessCode', code.id), code: code.code };
    if (code.pool_id) out.access_code.pool = { id: encodeId('accessCodePool', code.pool_id), name: code.pool_name ?? '' };
  }
  if (values) out.signup_fields = (values.get(r.user_id) ?? []).map(presentSignupValue);
  return out;
}

/** A list row's JSON text: the presented member through the compiled serializer. */
export const domainUserJson = (r: DomainUserListRow, codes: Map<string, AccessCodeInfo>, values?: Map<string, SignupValue[]>): string => domainUserSerializer(presentDomainUser(r, codes, values));
