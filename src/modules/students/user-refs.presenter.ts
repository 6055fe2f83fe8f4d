import { Type, type Static } from '@sinclair/typebox';
import { ext, PublicId } from '../../core/openapi/declared-shape';
import { fullName } from './students.presenter';
import type { UserRow } from './user-refs';
import { encodeId } from '../../core/ids/ids';

/**
 * The published /v1 ReadOnlyUser (the `user` of an enrollment, a registration...), with `full_name`
 * (an extension: the published User has it). A user row is never deleted (it is anonymized instead);
 * should it be missing, only the id is answered (the others are optional, not nullable).
 */
export const UserRefSchema = Type.Object({
  id: PublicId(),
  email: Type.Optional(Type.String({ format: 'email' })),
  first_name: Type.Optional(Type.String()),
  last_name: Type.Optional(Type.String()),
  full_name: Type.Optional(Type.String(ext())),
});
export type UserRef = Static<typeof UserRefSchema>;

/** The published /v1 User as other objects nest it: every member given. */
export const UserSchema = Type.Object({ id: PublicId(), email: Type.String({ format: 'email' }), first_name: Type.String(), last_name: Type.String(), full_name: Type.String() });
export type UserV1 = Static<typeof UserSchema>;

/** The v1 `user` block of an object pointing at a learner. */
export function presentUser(u: UserRow, uuid: string): UserV1;
export function presentUser(u: UserRow | undefined, uuid: string): UserRef;
export function presentUser(u: UserRow | undefined, uuid: string): UserRef {
  const id = encodeId('student', uuid);
  return u ? { id, email: u.email, first_name: u.first_name, last_name: u.last_name, full_name: fullName(u.first_name, u.last_name) } : { id };
}
