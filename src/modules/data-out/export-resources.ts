import type { IdType } from '../../core/ids/ids';
import { isoOfTimestamptz, TEXT_TIMESTAMPS } from '../../core/database/pool-reads';
import { bindOrg } from '../../core/database/scoped';
import { LRS_STATEMENTS_EXPORT } from '../lrs/lrs-export';
import { exportPublicId } from './public-ids';

/** Result types of an export's statement: timestamptz stays pg's text (written as ISO by slicing, not through a Date). */
export const EXPORT_TYPES = TEXT_TIMESTAMPS;

/**
 * What an export can hold (CONVENTIONS §20; docs/decisions/data-out.md): per resource, its columns
 * (CSV header and NDJSON member names), the statement that reads them for one organization (ordered
 * by an index) and how each value is written. Ids leave as public ids; times as ISO 8601 UTC; a
 * JSON value (an xAPI statement) as its JSON text in CSV and as the object in NDJSON.
 */
export type ColumnKind = { id: IdType } | 'time' | 'text' | 'number' | 'bool' | 'money' | 'json';

export interface ExportColumn {
  readonly name: string;
  readonly sql: string;
  readonly kind: ColumnKind;
}

export interface ExportResource {
  table: string;
  columns: readonly ExportColumn[];
  /** filters the resource takes (`updated_since` on the tables with updated_at) */
  updatedSince: boolean;
  /** the order the statement reads in, served by an index on (organization_id, ...) */
  order: string;
}

const id = (name: string, type: IdType, sql = name): ExportColumn => ({ name, sql: `t.${sql}`, kind: { id: type } });
const col = (name: string, kind: ColumnKind, sql = `t.${name}`): ExportColumn => ({ name, sql, kind });

export const EXPORT_RESOURCES = {
  users: {
    table: 'users',
    updatedSince: true,
    order: 't.created_at, t.id',
    columns: [
      id('id', 'student'),
      col('email', 'text'),
      col('first_name', 'text'),
      col('last_name', 'text'),
      col('external_id', 'text'),
      col('is_active', 'bool', 'NOT t.is_inactive'),
      col('deactivated_at', 'time'),
      col('created_at', 'time'),
      col('updated_at', 'time'),
    ],
  },
  enrollments: {
    table: 'enrollments',
    updatedSince: true,
    order: 't.created_at, t.id',
    columns: [
      id('id', 'enrollment'),
      id('user_id', 'student'),
      id('course_id', 'course'),
      id('published_course_id', 'publishedCourse'),
      col('active', 'bool'),
      col('enrolled_at', 'time'),
      col('started_at', 'time'),
      col('completed_at', 'time'),
      col('expires_at', 'time'),
      col('created_at', 'time'),
      col('updated_at', 'time'),
    ],
  },
  'course-progress': {
    table: 'course_progress',
    updatedSince: true,
    order: 't.updated_at, t.id',
    columns: [
      id('id', 'courseProgress'),
      id('user_id', 'student'),
      id('course_id', 'course'),
      id('published_course_id', 'publishedCourse'),
      id('enrollment_id', 'enrollment'),
      col('completed_at', 'time'),
      col('success_status', 'text'),
      col('score', 'number'),
      col('max_score', 'number'),
      col('latest_activity', 'time'),
      col('created_at', 'time'),
      col('updated_at', 'time'),
    ],
  },
  'lesson-progress': {
    table: 'lesson_progress',
    updatedSince: true,
    order: 't.created_at, t.id',
    columns: [
      id('id', 'lessonProgress'),
      id('user_id', 'student'),
      id('lesson_id', 'lesson'),
      id('course_progress_id', 'courseProgress'),
      col('view_count', 'number'),
      col('last_viewed_on', 'time'),
      col('finished_at', 'time'),
      col('completed_at', 'time'),
      col('success_status', 'text'),
      col('score', 'number'),
      col('max_score', 'number'),
      col('created_at', 'time'),
      col('updated_at', 'time'),
    ],
  },
  certificates: {
    table: 'certificates',
    updatedSince: false,
    order: 't.created_at, t.id',
    columns: [
      id('id', 'certificate'),
      id('user_id', 'student'),
      id('course_id', 'course'),
      id('published_course_id', 'publishedCourse'),
      id('enrollment_id', 'enrollment'),
      col('code', 'text'),
      col('issued_at', 'time'),
      col('expires_at', 'time'),
      col('score_as_percent', 'number'),
      col('created_at', 'time'),
    ],
  },
  purchases: {
    table: 'purchases',
    updatedSince: false,
    order: 't.created_at, t.id',
    columns: [
      id('id', 'purchase'),
      id('user_id', 'student'),
      id('offer_id', 'offer'),
      col('order_id', 'text'),
      col('state', 'text'),
      col('quantity', 'number'),
      col('currency_code', 'text'),
      col('price', 'money', 't.price_cents'),
      col('refund', 'money', 't.refund_cents'),
      col('promo_code', 'text'),
      col('payment_processor', 'text'),
      col('purchased_at', 'time'),
      col('fulfilled_at', 'time'),
      col('refunded_at', 'time'),
      col('created_at', 'time'),
      col('updated_at', 'time'),
    ],
  },
  'quiz-attempts': {
    table: 'quiz_attempts',
    updatedSince: false,
    order: 't.user_id',
    columns: [
      id('id', 'quizAttempt'),
      id('user_id', 'student'),
      id('quiz_id', 'quiz'),
      id('lesson_id', 'lesson'),
      id('published_course_id', 'publishedCourse'),
      col('attempt_number', 'number'),
      col('status', 'text'),
      col('score', 'number'),
      col('max_score', 'number'),
      col('percentage_correct', 'number'),
      col('passed', 'bool'),
      col('started_at', 'time'),
      col('submitted_at', 'time'),
      col('created_at', 'time'),
    ],
  },
  // the LRS's statements, as the LRS declares them (it owns lrs_statements)
  'xapi-statements': LRS_STATEMENTS_EXPORT,
} satisfies Record<string, ExportResource>;

export type ExportResourceName = keyof typeof EXPORT_RESOURCES;
export const EXPORT_RESOURCE_NAMES = Object.keys(EXPORT_RESOURCES) as ExportResourceName[];

export interface ExportFilter {
  updated_since?: string;
}

/**
 * The statement of an export for the organization: the organization named `$org` and bound by
 * bindOrg as scoped() binds it (the worker runs it on a pg cursor, not through a SqlRunner), after
 * `$1` updated_since when given; `values` are the parameters of `text` and `count` alike. Its columns
 * are the resource's, one each (NDJSON, and the bare SELECT the benchmark hands to `psql \copy`); with
 * `csv` every run of columns that PostgreSQL can write as CSV itself (times, booleans, text) comes as
 * one field already holding those columns' CSV text (csvSql), so that the worker parses and writes
 * a few fields per row instead of one per column (docs/performance.md, "Exports").
 */
export function exportQuery(organizationId: string, resource: ExportResourceName, filter: ExportFilter, form: 'columns' | 'csv' = 'columns'): { text: string; count: string; values: unknown[] } {
  const r: ExportResource = EXPORT_RESOURCES[resource];
  const values: unknown[] = [];
  let where = `t.organization_id = $org`;
  if (filter.updated_since && r.updatedSince) where += ` AND t.updated_at >= $${values.push(filter.updated_since)}`;
  const select =
    form === 'csv'
      ? csvSegments(resource)
          .map((g, i) => (g.run ? `${g.columns.map(csvSql).join(` || ',' || `)} AS "s${i}"` : `${g.columns[0].sql} AS "s${i}"`))
          .join(', ')
      : r.columns.map((c) => `${c.sql} AS "${c.name}"`).join(', ');
  return {
    text: bindOrg(`SELECT ${select} FROM ${r.table} t WHERE ${where} ORDER BY ${r.order}`, values.length),
    count: bindOrg(`SELECT count(*)::bigint AS n FROM ${r.table} t WHERE ${where}`, values.length),
    values: [...values, organizationId],
  };
}

/** Kinds whose CSV text PostgreSQL writes exactly as csvRecord does (ids need the public id encoder; numbers, amounts and JSON stay with the worker's writers). */
const SQL_CSV_KINDS = new Set<ColumnKind>(['time', 'bool', 'text']);

interface CsvSegment {
  /** a run of columns PostgreSQL writes as one pre-made CSV field, or one column the worker writes */
  run: boolean;
  columns: ExportColumn[];
  /** index of the first column */
  at: number;
}

/** A resource's columns as runs PostgreSQL writes and single columns the worker writes, in column order. */
export function csvSegments(resource: ExportResourceName): CsvSegment[] {
  const out: CsvSegment[] = [];
  EXPORT_RESOURCES[resource].columns.forEach((c: ExportColumn, i: number) => {
    const run = SQL_CSV_KINDS.has(c.kind);
    const last = out[out.length - 1];
    if (run && last?.run) last.columns.push(c);
    else out.push({ run, columns: [c], at: i });
  });
  return out;
}

/**
 * One column's CSV field, written by PostgreSQL exactly as csvRecord writes it: empty for null, a
 * time as ISO 8601 UTC with milliseconds (truncated, as isoTime slices them), `true`/`false`, text
 * quoted (quotes doubled) when it holds a comma, a double quote or a line break.
 * export-resources.e2e-spec.ts checks the two writers against each other on every resource.
 */
export function csvSql(c: ExportColumn): string {
  if (c.kind === 'time') return `coalesce(to_char((${c.sql}) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), '')`;
  if (c.kind === 'bool') return `(CASE WHEN (${c.sql}) THEN 'true' WHEN NOT (${c.sql}) THEN 'false' ELSE '' END)`;
  const v = `(${c.sql})::text`;
  return `coalesce(CASE WHEN ${v} ~ '[",\r\n]' THEN '"' || replace(${v}, '"', '""') || '"' ELSE ${v} END, '')`;
}

/**
 * pg's UTC text of a timestamptz ('2026-01-31 12:00:00.123+00') as ISO 8601 ('2026-01-31T12:00:00.123Z'),
 * by slicing: the same string as isoOfTimestamptz (which it falls back to for any other form).
 */
export function isoTime(t: string): string {
  const n = t.length;
  if (n >= 22 && t.charCodeAt(10) === 32 && t.charCodeAt(n - 3) === 43 && t.charCodeAt(n - 2) === 48 && t.charCodeAt(n - 1) === 48) {
    const base = t.slice(0, 10) + 'T' + t.slice(11, 19);
    if (n === 22) return base + '.000Z';
    if (n === 26 && t.charCodeAt(19) === 46) return base + t.slice(19, 23) + 'Z';
  }
  return isoOfTimestamptz(t);
}

/** Public ids remembered per reference column of one export (about 150 bytes each). */
const REFERENCE_MEMO = 10_000;

/** Each column's writer: a public id, an ISO time, a number, a boolean, an amount, or text. */
function valueWriters(resource: ExportResourceName): ((v: unknown) => unknown)[] {
  const cols: readonly ExportColumn[] = EXPORT_RESOURCES[resource].columns;
  return cols.map((c): ((v: unknown) => unknown) => {
    const k = c.kind;
    if (typeof k === 'object') {
      // the row's own id is new on every row; a reference (a course, a user) repeats: remembered per export, bounded
      if (c.name === 'id') return (v) => (v == null ? null : exportPublicId(k.id, v as string));
      // a column whose values hardly repeat (each enrollment's own user) stops being remembered:
      // a Map insertion per row costs more than the conversion it would save
      const seen = new Map<string, string>();
      let hits = 0;
      let remember = true;
      return (v) => {
        if (v == null) return null;
        if (!remember) return exportPublicId(k.id, v as string);
        let out = seen.get(v as string);
        if (out !== undefined) {
          hits++;
          return out;
        }
        out = exportPublicId(k.id, v as string);
        if (seen.size >= REFERENCE_MEMO) {
          remember = hits >= REFERENCE_MEMO;
          seen.clear();
          hits = 0;
        }
        if (remember) seen.set(v as string, out);
        return out;
      };
    }
    if (k === 'time') return (v) => (v == null ? null : isoTime(v as string));
    if (k === 'money') return (v) => (v == null ? null : (Number(v) / 100).toFixed(2));
    if (k === 'number') return (v) => (v == null ? null : Number(v));
    if (k === 'bool') return (v) => (v == null ? null : Boolean(v));
    if (k === 'json') return (v) => (v == null ? null : v);
    return (v) => (v == null ? null : String(v));
  });
}

/** One row (an array in column order, as pg gives it with rowMode 'array') as the export's values. */
export function exportValues(resource: ExportResourceName): (row: unknown[]) => unknown[] {
  const writers = valueWriters(resource);
  return (row) => {
    const out = new Array(writers.length);
    for (let i = 0; i < writers.length; i++) out[i] = writers[i](row[i]);
    return out;
  };
}

/** RFC 4180: a field is quoted when it holds a comma, a double quote or a line break; quotes inside are doubled. */
const NEEDS_QUOTES = /[",\r\n]/;
export const csvField = (s: string): string => (NEEDS_QUOTES.test(s) ? '"' + s.replace(/"/g, '""') + '"' : s);

/**
 * One row (as exportValues reads it) as one CSV record with its CRLF, written straight from the
 * row: only text columns can need quoting (ids, times, numbers, booleans and amounts never hold a
 * comma, a quote or a line break). export-resources.spec.ts checks it against csv-stringify, the
 * reference writer, field by field and record by record.
 */
export function csvRecord(resource: ExportResourceName): (row: unknown[]) => string {
  const fields = csvRecordFields(resource);
  const n = fields.length;
  return (row) => {
    let line = fields[0](row[0]);
    for (let i = 1; i < n; i++) line += ',' + fields[i](row[i]);
    return line + '\r\n';
  };
}

/** Each column straight to its CSV text: no array of values per row (an export makes millions). */
function csvRecordFields(resource: ExportResourceName): ((v: unknown) => string)[] {
  const cols: readonly ExportColumn[] = EXPORT_RESOURCES[resource].columns;
  const writers = valueWriters(resource);
  return cols.map((c, i): ((v: unknown) => string) => {
    const w = writers[i];
    if (c.kind === 'text') return (v) => (v == null ? '' : csvField(String(v)));
    if (c.kind === 'bool') return (v) => (v == null ? '' : v ? 'true' : 'false');
    if (c.kind === 'json') return (v) => (v == null ? '' : csvField(JSON.stringify(v)));
    return (v) => (v == null ? '' : String(w(v)));
  });
}

/**
 * One row of the `csv` form of exportQuery (its runs already CSV text made by PostgreSQL, the other
 * columns raw) as one CSV record with its CRLF: the same bytes csvRecord writes for the row read
 * column by column.
 */
export function csvRecordOfSegments(resource: ExportResourceName): (row: unknown[]) => string {
  const one = csvRecordFields(resource);
  const fields = csvSegments(resource).map((g): ((v: unknown) => string) => (g.run ? (v) => v as string : one[g.at]));
  const n = fields.length;
  return (row) => {
    let line = fields[0](row[0]);
    for (let i = 1; i < n; i++) line += ',' + fields[i](row[i]);
    return line + '\r\n';
  };
}

export const exportHeader = (resource: ExportResourceName): string[] => EXPORT_RESOURCES[resource].columns.map((c) => c.name);
