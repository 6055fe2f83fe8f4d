import { encodeId } from '../../core/ids/ids';
import { fullName } from './students.presenter';
import type { UserRow } from './user-refs';

/** The v1 `user` block of an object pointing at a learner (all null but the id when the user is gone). */
export function presentUser(u: UserRow | undefined, uuid: string) {
  return { id: encodeId('student', uuid), email: u?.email ?? null, first_name: u?.first_name ?? null, last_name: u?.last_name ?? null, full_name: u ? fullName(u.first_name, u.last_name) : null };
}
