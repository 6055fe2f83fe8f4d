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
 * The same resource straight from a row of STUDENT_COLUMNS as pg answers it (snake_case members,
 * created_at a Date), without the entity in between: the batch writes present the rows their
 * statement returned.
 */
export function presentStudentRow(r: { id: string; email: string; first_name: string; last_name: string; is_inactive: boolean; external_id: string; created_at: Date | string }): StudentResource {
  return {
    type: 'students',
    id: encodeId('student', r.id),
    attributes: {
      email: r.email,
      first_name: r.first_name,
      last_name: r.last_name,
      is_inactive: r.is_inactive,
      external_id: r.external_id,
      date_joined: (r.created_at instanceof Date ? r.created_at : new Date(r.created_at)).toISOString(),
    },
  };
}

/**
 * The read-only `full_name` of the published v1 `User` schema, as Django's `get_full_name()`
 * builds it: first and last name joined by a space, trimmed (`""` when both are empty).
 */
export function fullName(firstName: string | null | undefined, lastName: string | null | undefined): string {
  return `${firstName ?? ''} ${lastName ?? ''}`.trim();
}
