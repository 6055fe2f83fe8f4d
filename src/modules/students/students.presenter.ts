import { encodeId } from '../../core/ids/ids';
import type { Student } from './student.entity';

/** Student -> JSON:API resource (StudentResource / StudentAttributes of the published OpenAPI). Pure: no queries. */
export function presentStudent(s: Student) {
  return {
    type: 'students' as const,
    id: encodeId('student', s.id),
    attributes: {
      email: s.email,
      first_name: s.firstName,
      last_name: s.lastName,
      is_inactive: s.isInactive,
      external_id: s.externalId,
      date_joined: s.createdAt.toISOString(),
    },
  };
}

export type StudentResource = ReturnType<typeof presentStudent>;

/**
 * The read-only `full_name` of the published v1 `User` schema, as Django's `get_full_name()`
 * builds it: first and last name joined by a space, trimmed (`""` when both are empty).
 */
export function fullName(firstName: string | null | undefined, lastName: string | null | undefined): string {
  return `${firstName ?? ''} ${lastName ?? ''}`.trim();
}
