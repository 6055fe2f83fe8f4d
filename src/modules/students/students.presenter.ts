import { types } from 'pg';
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
 * created_at a Date or pg's text, as studentRowJoined reads it), without the entity in between: the
 * batch writes present the rows their statement returned. `publicId`: the row's public id when the
 * caller has it already (cachedPublicId).
 */
export function presentStudentRow(r: StudentRow, publicId: string = encodeId('student', r.id)): StudentResource {
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

/**
 * A row of STUDENT_COLUMNS as the list reads it: timestamptz columns either parsed (Date) or left
 * as pg's text (the prepared list reads them unparsed and parses only `created_at`, below).
 */
export interface StudentRow {
  id: string;
  email: string;
  first_name: string;
  last_name: string;
  is_inactive: boolean;
  external_id: string;
  created_at: Date | string;
}

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

/**
 * `JSON.stringify(presentStudent(studentFromRow(r)))` written directly (the same bytes: same members
 * in the same order, each value through JSON.stringify), without the entity and resource objects in
 * between: the list presents 100 of these per request.
 */
export function studentRowJson(r: StudentRow): string {
  return (
    '{"type":"students","id":"' +
    encodeId('student', r.id) +
    '","attributes":{"email":' +
    JSON.stringify(r.email) +
    ',"first_name":' +
    JSON.stringify(r.first_name) +
    ',"last_name":' +
    JSON.stringify(r.last_name) +
    ',"is_inactive":' +
    JSON.stringify(r.is_inactive) +
    ',"external_id":' +
    JSON.stringify(r.external_id) +
    ',"date_joined":"' +
    studentRowJoined(r) +
    '"}}'
  );
}

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
