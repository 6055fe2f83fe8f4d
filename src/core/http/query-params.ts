import { NoMatch, ValidationFailed } from './api-error';

/**
 * Query-string helpers shared by the /v2 content and reporting lists. Values arrive as strings;
 * a repeated parameter arrives as an array and is refused with 422 naming the parameter, never
 * a 500. NUL characters are refused too (PostgreSQL text cannot hold them).
 */
export function stringParam(query: Record<string, unknown>, name: string, maxLength = 1000): string | undefined {
  const v = query[name];
  if (v === undefined) return undefined;
  if (typeof v !== 'string') throw invalid(name, 'must be a single string value');
  if (v.length > maxLength) throw invalid(name, `must be at most ${maxLength} characters`);
  if (v.includes('\u0000')) throw invalid(name, 'must not contain NUL characters');
  return v;
}

/**
 * A /v2 list filter's text (a name, a title, an email, an id): a list filter never fails on a long
 * value, it matches nothing (CONVENTIONS §16). A value longer than `maxLength` (the longest the
 * filtered column or id can hold) is NoMatch: the ordinary empty page, answered without a statement
 * (http-exception.filter.ts). A value of the wrong kind (a repeated parameter) is still 422 naming it.
 */
export function filterParam(query: Record<string, unknown>, name: string, maxLength: number): string | undefined {
  const v = query[name];
  if (v === undefined) return undefined;
  if (typeof v !== 'string') throw invalid(name, 'must be a single string value');
  if (v.length > maxLength || v.includes('\u0000')) throw new NoMatch(name);
  return v;
}

export function invalid(parameter: string, message: string): ValidationFailed {
  return new ValidationFailed([{ parameter, field: parameter, message }]);
}

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

/**
 * An ISO 8601 / RFC 3339 date-time. With `requireOffset`, a value without `Z` or `±hh:mm` is
 * refused (filter[updated_since]); otherwise a naive value is read as UTC.
 */
export function dateTimeParam(query: Record<string, unknown>, name: string, requireOffset: boolean): Date | undefined {
  const v = stringParam(query, name, 64);
  if (v === undefined) return undefined;
  // an unencoded `+` in a query string arrives as a space: `...T10:00:00 02:00` means `+02:00`
  const m = DATE_TIME.exec(v.trim().replace(/ (\d{2}(?::?\d{2})?)$/, '+$1'));
  if (!m) throw invalid(name, 'must be an ISO 8601 date-time, e.g. 2024-01-01T00:00:00Z');
  const [, y, mo, d, h, mi, s] = m;
  let offset = m[8];
  if (!offset) {
    if (requireOffset) throw invalid(name, 'must carry a timezone offset (Z or ±hh:mm)');
    offset = 'Z';
  }
  if (+mo < 1 || +mo > 12 || +d < 1 || +d > 31 || +h > 23 || +mi > 59 || (s !== undefined && +s > 59)) {
    throw invalid(name, 'is not a valid date-time');
  }
  const norm = /^[+-]\d{2}$/.test(offset) ? `${offset}:00` : /^[+-]\d{4}$/.test(offset) ? `${offset.slice(0, 3)}:${offset.slice(3)}` : offset.toUpperCase();
  const frac = m[7] ? `.${m[7].slice(0, 3)}` : '';
  const date = new Date(`${y}-${mo}-${d}T${h}:${mi}:${s ?? '00'}${frac}${norm}`);
  if (Number.isNaN(date.getTime()) || date.getUTCFullYear() < 1 || date.getUTCFullYear() > 9999) throw invalid(name, 'is not a valid date-time');
  // reject calendar overflow such as 2024-02-31
  const check = new Date(Date.UTC(+y, +mo - 1, +d));
  if (check.getUTCMonth() !== +mo - 1) throw invalid(name, 'is not a valid date-time');
  return date;
}

/** Comma-separated names, trimmed and lowercased, empty entries dropped (at most 100). */
export function listParam(query: Record<string, unknown>, name: string): string[] | undefined {
  const v = stringParam(query, name, 10_000);
  if (v === undefined) return undefined;
  const items = [
    ...new Set(
      v
        .split(',')
        .map((s) => s.trim().toLowerCase())
        .filter(Boolean),
    ),
  ];
  if (items.length > 100) throw invalid(name, 'may name at most 100 values');
  return items;
}

/** Escape LIKE wildcards so user input matches literally (ESCAPE '\'). */
export function escapeLike(s: string): string {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** A boolean filter: `true` or `false`, anything else 422 naming the parameter. */
export function boolParam(query: Record<string, unknown>, name: string): boolean | undefined {
  const v = stringParam(query, name, 16);
  if (v === undefined) return undefined;
  if (v !== 'true' && v !== 'false') throw invalid(name, 'must be true or false');
  return v === 'true';
}

/** `include`: a comma-separated subset of `supported` (anything else is 422). */
export function includeParam<S extends string>(query: Record<string, unknown>, supported: readonly S[]): Set<S> {
  const names = listParam(query, 'include') ?? [];
  const unknown = names.filter((n) => !(supported as readonly string[]).includes(n));
  if (unknown.length) throw invalid('include', `unsupported: ${unknown.join(', ')} (supported: ${supported.join(', ')})`);
  return new Set(names as S[]);
}

/** A value of an enumeration, anything else 422 naming the parameter and the choices. */
export function enumParam<E extends string>(query: Record<string, unknown>, name: string, values: readonly E[]): E | undefined {
  const v = stringParam(query, name, 64);
  if (v === undefined) return undefined;
  if (!(values as readonly string[]).includes(v)) throw invalid(name, `must be one of ${values.join(', ')}`);
  return v as E;
}
