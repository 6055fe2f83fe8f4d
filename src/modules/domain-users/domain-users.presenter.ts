import { Type, type Static } from '@sinclair/typebox';
import { compileSerializer, DateTime, nullable, PublicId } from '../../core/openapi/declared-shape';
import { isoOf } from '../../core/database/pool-reads';
import { cachedPublicId, encodeId } from '../../core/ids/ids';
import { fullName } from '../students/students.presenter';
import type { AccessCodeInfo, DomainUserListRow, DomainUserRow, SignupValue } from './domain-users.service';

export function presentSignupValue(v: SignupValue) {
  return { signup_field: { id: encodeId('signupField', v.field_id), label: v.label }, value: v.value };
}

/**
 * DomainUserListItem of the published /v1 document, declared once (core/openapi/declared-shape.ts):
 * the user as an event body's (event-user.ts) + `full_name`; `access_code` left out for a member who joined without one
 * (optional, not nullable); `signup_fields` only when asked for (an extension).
 */
export const DomainUserSchema = Type.Object({
  user: Type.Object({ id: PublicId(), email: Type.String(), first_name: Type.String(), last_name: Type.String(), full_name: Type.String() }),
  active: Type.Boolean(),
  marketing_optin: nullable(Type.Boolean()),
  enrolled_at: DateTime(),
  expires_at: nullable(DateTime()),
  access_code: Type.Optional(Type.Object({ id: PublicId(), code: Type.String(), pool: nullable(Type.Object({ id: PublicId(), name: Type.String() })) })),
  signup_fields: Type.Optional(Type.Array(Type.Object({ signup_field: Type.Object({ id: PublicId(), label: Type.String() }), value: Type.String() }), { 'x-extension': true })),
});
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
  if (code) out.access_code = { id: encodeId('accessCode', code.id), code: code.code, pool: code.pool_id ? { id: encodeId('accessCodePool', code.pool_id), name: code.pool_name ?? '' } : null };
  if (values) out.signup_fields = (values.get(r.user_id) ?? []).map(presentSignupValue);
  return out;
}

/** A list row's JSON text: the presented member through the compiled serializer. */
export const domainUserJson = (r: DomainUserListRow, codes: Map<string, AccessCodeInfo>, values?: Map<string, SignupValue[]>): string => domainUserSerializer(presentDomainUser(r, codes, values));
