import { Type, type Static } from '@sinclair/typebox';
import { encodeId } from '../../core/ids/ids';
import { iso } from '../../core/http/v1-rules';
import { DateTime, declaredV1, ext, nullable, PublicId, StringEnum } from '../../core/openapi/declared-shape';
import { fullName } from '../students/students.presenter';
import type { CodeView, PoolView } from './access-codes.service';

/**
 * The published /v1 DomainAccessCodePoolDetail (and the list's DomainAccessCodePoolListItem, which
 * keeps `code_count` too: it is computed set-wise), declared once (core/openapi/declared-shape.ts).
 */
export const AccessCodePoolSchema = declaredV1(
  ['DomainAccessCodePoolDetail', 'DomainAccessCodePoolListItem'],
  Type.Object({
    id: PublicId(),
    name: Type.String(),
    active: Type.Boolean(),
    start_date: nullable(DateTime()),
    end_date: nullable(DateTime()),
    expire_linked_to_domain_membership: Type.Boolean(),
    channel: nullable(StringEnum(['api', 'import', 'dashboard', 'ecommerce', 'unknown'])),
    code_count: Type.Integer(),
  }),
);

const CODE_MEMBERS = {
  id: PublicId(),
  code: Type.String(),
  active: Type.Boolean(),
  max_uses: Type.Integer(),
  use_count: Type.Integer(),
  duration: nullable(Type.Integer()),
  duration_unit: StringEnum(['MONTHS', 'DAYS']),
};

/** The published DomainAccessCodeListItem and DomainAccessCodeDetail (which adds `users`, on read, create and update). */
export const AccessCodeSchema = declaredV1(
  ['DomainAccessCodeListItem', 'DomainAccessCodeDetail'],
  Type.Object({
    ...CODE_MEMBERS,
    users: Type.Optional(Type.Array(Type.Object({ id: PublicId(), email: Type.String({ format: 'email' }), first_name: Type.String(), last_name: Type.String(), full_name: Type.String(ext()) }))),
  }),
);
export type AccessCodeV1 = Static<typeof AccessCodeSchema>;

export function presentPool(v: PoolView): Static<typeof AccessCodePoolSchema> {
  return {
    id: encodeId('accessCodePool', v.pool.id),
    name: v.pool.name,
    active: v.pool.active,
    start_date: iso(v.pool.startDate),
    end_date: iso(v.pool.endDate),
    expire_linked_to_domain_membership: v.pool.expireLinkedToDomainMembership,
    channel: v.pool.channel,
    code_count: v.codeCount,
  };
}

/** DomainAccessCodeListItem; DomainAccessCodeDetail adds `users` (the users who redeemed the code: all live). */
export function presentCode(v: CodeView): AccessCodeV1 {
  const out: AccessCodeV1 = {
    id: encodeId('accessCode', v.code.id),
    code: v.code.code,
    active: v.code.active,
    max_uses: v.code.maxUses,
    use_count: v.useCount,
    duration: v.code.duration,
    duration_unit: v.code.durationUnit,
  };
  if (v.users) out.users = v.users.map((u) => ({ id: encodeId('student', u.id), email: u.email, first_name: u.first_name, last_name: u.last_name, full_name: fullName(u.first_name, u.last_name) }));
  return out;
}
