import { Matches, ValidateIf, ValidationOptions } from 'class-validator';
import { ValidationFailed } from './api-error';
import { DRF } from './drf-messages';

/**
 * Helpers shared by every /v1 module: optional-but-not-null body members, query parameter parsing
 * with 400 field errors naming the parameter (Django REST framework's wording), and timestamps.
 */

/** The member may be absent; when present it is validated (null included, so null is rejected). */
export const Present = (opts?: ValidationOptions) => ValidateIf((_o, v) => v !== undefined, opts);

/** The member may be absent or null (nullable columns). */
export const PresentNotNull = (opts?: ValidationOptions) => ValidateIf((_o, v) => v !== undefined && v !== null, opts);

/** PostgreSQL text cannot hold NUL characters: reject them as bad input (400), never a 500. */
export const NoNul = () => Matches(/^[^\u0000]*$/, { message: DRF.nul });

export function fieldError(field: string, message: string): ValidationFailed {
  return new ValidationFailed([{ field, message }], 400);
}

export function paramError(name: string, message: string): ValidationFailed {
  return new ValidationFailed([{ parameter: name, field: name, message }], 400);
}

/** A single string query parameter (the last one when repeated), or undefined. */
export function strParam(query: Record<string, unknown>, name: string, maxLength = 1000): string | undefined {
  let v = query[name];
  if (Array.isArray(v)) v = v[v.length - 1];
  if (v === undefined) return undefined;
  if (typeof v !== 'string') throw paramError(name, DRF.string);
  if (v.length > maxLength) throw paramError(name, DRF.maxLength(maxLength));
  if (v.includes('\u0000')) throw paramError(name, DRF.nul);
  return v;
}

/** Django REST framework's boolean filter: true/false/1/0 (any case); anything else is a 400. */
export function boolParam(query: Record<string, unknown>, name: string): boolean | undefined {
  const v = strParam(query, name);
  if (v === undefined || v === '') return undefined;
  const s = v.toLowerCase();
  if (s === 'true' || s === '1' || s === 'yes' || s === 'on') return true;
  if (s === 'false' || s === '0' || s === 'no' || s === 'off') return false;
  throw paramError(name, DRF.boolean);
}

export const iso = (d: Date | string | null | undefined): string | null => (d ? new Date(d).toISOString() : null);

/** A strict ISO 8601 date-time (with a time zone, or UTC when none is given). */
const ISO_RE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:?\d{2})?)?$/;
export function parseTimestamp(field: string, value: unknown, nullable: boolean): Date | null | undefined {
  if (value === undefined) return undefined;
  if (value === null) {
    if (nullable) return null;
    throw new ValidationFailed([{ field, message: DRF.null }], 400);
  }
  if (typeof value !== 'string' || !ISO_RE.test(value)) {
    throw new ValidationFailed([{ field, message: DRF.datetime }], 400);
  }
  const withZone = /T/.test(value) && !/(Z|[+-]\d{2}:?\d{2})$/.test(value) ? `${value}Z` : value;
  const d = new Date(withZone);
  if (Number.isNaN(d.getTime()) || d.getUTCFullYear() < 1 || d.getUTCFullYear() > 9999) {
    throw new ValidationFailed([{ field, message: DRF.datetime }], 400);
  }
  return d;
}
