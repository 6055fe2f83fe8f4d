import { types } from 'pg';
import { Type, type Static } from '@sinclair/typebox';
import { encodeId } from '../../core/ids/ids';
import { compileSerializer, DateTime, declaredV2, PublicId } from '../../core/openapi/declared-shape';
import type { Student } from './student.entity';
import { type StudentRow } from './students.shape';
export { type StudentRow } from './students.shape';

/**
 * The student resource (StudentResource / StudentAttributes of the published /v2 document), declared
 * once: its TypeScript type, its serializer and the tests derive from it (core/openapi/declared-shape.ts).
 */
export const StudentAttributesSchema = Type.Object({
  email: Type.String({ description: "Student's email address." }),
  first_name: Type.String({ description: "Student's given name." }),
  last_name: Type.String({ description: "Student's family name." }),
  is_inactive: Type.Boolean({ description: 'True if the student has been deactivated.' }),
  external_id: Type.String({ description: 'Stable id for cross-system correlation.' }),
  date_joined: DateTime({ description: 'Timestamp when the student joined.' }),
});
export const StudentResourceSchema = declaredV2('StudentResource', Type.Object({ type: Type.Literal('students'), id: PublicId(), attributes: StudentAttributesSchema }));
export type StudentResource = Static<typeof StudentResourceSchema>;

/** The JSON text of a student resource (compiled from StudentResourceSchema): the list writes 100 per request. */
export const studentJson = compileSerializer(StudentResourceSchema);

/**
 * The student resource from a row of STUDENT_COLUMNS as pg answers it (snake_case members,
 * created_at a Date or pg's text, as studentRowJoined reads it). The one presenter of a student:
 * the list, the batch writes (the rows their statement returned) and, through studentRowOf, the
 * entity reads. `publicId`: the row's public id when the caller has it already (cachedPublicId).
 */
export function presentStudentResource(r: StudentRow, publicId: string = encodeId('student', r.id)): StudentResource {
  return {
    type: 'students',
    id: publicId,
    attributes: {
      email: r.email,
      first_name: r.first_name,
      last_name: r.last_name,
      is_inactive: r.is_inactive,
      external_id: r.external_id,
      date_joined: studentRowJoined(r),
    },
  };
}

/** A Student entity as the row presentStudentResource reads. */
export const studentRowOf = (s: Student): StudentRow => ({
  id: s.id,
  email: s.email,
  first_name: s.firstName,
  last_name: s.lastName,
  is_inactive: s.isInactive,
  external_id: s.externalId,
  created_at: s.createdAt,
});

/** Student -> JSON:API resource. Pure: no queries. */
export const presentStudent = (s: Student): StudentResource => presentStudentResource(studentRowOf(s));

/** pg's own parser of timestamptz text (the one a query without `types` uses). */
const parseTimestamptz = types.getTypeParser(types.builtins.TIMESTAMPTZ, 'text') as (text: string) => Date;

/** A list row's `created_at` as pg would have parsed it. */
export function studentRowCreatedAt(r: StudentRow): Date {
  return r.created_at instanceof Date ? r.created_at : parseTimestamptz(r.created_at);
}

/**
 * A list row's `created_at` as toISOString writes it. pg's text of a UTC instant (the session's time
 * zone UTC, DateStyle ISO: `2026-11-24 20:05:45.123456+00`, trailing zeros of the fraction left out)
 * is rewritten as such directly (the same text: toISOString keeps the first three digits of the
 * fraction); anything else (another offset or style, a year before 1000 or after 9999, BC,
 * infinity, a Date) goes through pg's parser and toISOString.
 */
export function studentRowJoined(r: StudentRow): string {
  const c = r.created_at;
  if (typeof c === 'string') {
    const n = c.length;
    if (
      (n === 22 || (n >= 24 && n <= 29 && c.charCodeAt(19) === 46)) && // no fraction, or '.' and 1..6 digits
      c.charCodeAt(0) !== 48 && // a 4-digit year from 1000
      c.charCodeAt(10) === 32 && // 'YYYY-MM-DD HH:MM:SS'
      c.charCodeAt(n - 3) === 43 && // '+00'
      c.charCodeAt(n - 2) === 48 &&
      c.charCodeAt(n - 1) === 48
    ) {
      return c.slice(0, 10) + 'T' + c.slice(11, 19) + (n === 22 ? '.000' : (c.slice(19, n - 3) + '00').slice(0, 4)) + 'Z';
    }
  }
  return studentRowCreatedAt(r).toISOString();
}

/** A list row's JSON text: its resource through the compiled serializer. */
export const studentRowJson = (r: StudentRow): string => studentJson(presentStudentResource(r));

/** A list row's keyset position (the cursor of the page it ends). */
export function studentRowPosition(r: StudentRow): { t: string; id: string } {
  return { t: studentRowJoined(r), id: r.id };
}

/**
 * The read-only `full_name` of the published v1 `User` schema, as Django's `get_full_name()`
 * builds it: first and last name joined by a space, trimmed (`""` when both are empty).
 */
export function fullName(firstName: string | null | undefined, lastName: string | null | undefined): string {
  return `${firstName ?? ''} ${lastName ?? ''}`.trim();
}
