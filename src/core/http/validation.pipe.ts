import { ArgumentMetadata, Injectable, PipeTransform } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { getMetadataStorage, ValidationError } from 'class-validator';
import { badRequest, FieldProblem, NoMatch, V1Seg, ValidationFailed } from './api-error';
import { FILTER } from './v1-rules';
import { DRF, drfMessages, failedConstraints } from './drf-messages';
import { transformValid, validateWhitelisted } from './fast-validate';
import { metadataGeneration } from './validation-metadata-cache';

/** Flatten class-validator's error tree into problems with JSON pointers (and, for /v1, each problem's place in DRF's nested body). */
export function toProblems(errors: ValidationError[], kind: 'body' | 'query' | 'param' | 'custom', basePointer = ''): FieldProblem[] {
  const out: FieldProblem[] = [];
  const walk = (errs: ValidationError[], path: string[], segs: V1Seg[], parent: unknown) => {
    for (const e of errs) {
      const here = [...path, e.property];
      // an element of a list of nested objects: DRF answers the list's errors as a list, one entry per element
      const at: V1Seg[] = [...segs, Array.isArray(parent) && /^\d+$/.test(e.property) ? { index: Number(e.property), of: parent.length } : e.property];
      // /v1 shows Django REST framework's messages, computed once per member from the value sent
      let v1: FieldProblem['v1'] | undefined;
      if (e.constraints && Object.keys(e.constraints).length) {
        const failed = failedConstraints(e);
        const drf = drfMessages(e.value, failed);
        v1 = {
          field: drf.index === undefined ? here.join('.') : [...here, drf.index].join('.'),
          messages: drf.messages,
          path: drf.index === undefined ? at : [...at, ...elementAt(e.value, drf.index, failed, drf.messages)],
        };
      }
      for (const message of Object.values(e.constraints ?? {})) {
        const field = here.join('.');
        // an element rule names the element it refused (`/content_items/0`)
        const pointerAt = v1 && v1.field !== field ? [...here, v1.field.slice(field.length + 1)] : here;
        out.push(kind === 'body' || kind === 'custom' ? { pointer: `${basePointer}/${pointerAt.join('/')}`, field, message, v1 } : { parameter: field, field, message, v1 });
        if (v1) v1 = { ...v1, messages: [] };
      }
      if (e.children?.length) walk(e.children, here, at, e.value);
    }
  };
  walk(errors, [], [], undefined);
  return out;
}

/**
 * Where DRF puts the messages about element `index` that an `each` rule refused: in a list of
 * nested objects (ObjectList: `isObject` on each element), that element's entry of the list, its
 * `non_field_errors` for a value that is not a dictionary ("This field may not be null." stands
 * alone for null); in a ListField, the element's index as a key.
 */
function elementAt(list: unknown, index: number, failed: { name: string; each?: boolean }[], messages: string[]): V1Seg[] {
  const objects = failed.some((f) => f.each && (f.name === 'isObject' || f.name === 'nestedValidation'));
  if (!objects || !Array.isArray(list)) return [String(index)];
  const element: V1Seg = { index, of: list.length };
  return list[index] === null && messages.length === 1 && messages[0] === DRF.null ? [element] : [element, 'non_field_errors'];
}

/**
 * The query's list filters (Filter()) can match something: one with a NUL character, or longer than
 * its `max`, is NoMatch, the empty list (CONVENTIONS §16). Per class, the filter members and their
 * caps are read once from the metadata (one look-up per query string member afterwards).
 */
function matchable<T>(query: T): T {
  let filters: Map<string, number> | undefined;
  for (const [k, v] of Object.entries(query as object)) {
    if (typeof v !== 'string') continue;
    filters ??= filtersOf((query as object).constructor);
    const max = filters.get(k);
    if (max !== undefined && (v.length > max || v.includes('\u0000'))) throw new NoMatch(k);
  }
  return query;
}

let filterCaps = new Map<unknown, Map<string, number>>();
let filterCapsGeneration = -1;

/** member -> its Filter() cap (Infinity when none) of a query class. */
function filtersOf(cls: Function): Map<string, number> {
  if (filterCapsGeneration !== metadataGeneration()) {
    filterCaps = new Map();
    filterCapsGeneration = metadataGeneration();
  }
  let caps = filterCaps.get(cls);
  if (caps) return caps;
  caps = new Map();
  const storage = getMetadataStorage() as any;
  for (const m of storage.getTargetValidationMetadatas(cls, undefined, true, false, undefined)) {
    if (m.type !== 'customValidation' || !storage.getTargetValidatorConstraints(m.constraintCls).some((c: any) => c.name === FILTER)) continue;
    const max = m.constraints?.[0]?.filterMax;
    caps.set(m.propertyName, typeof max === 'number' ? max : Infinity);
  }
  filterCaps.set(cls, caps);
  return caps;
}

const PRIMITIVES = new Set<unknown>([String, Boolean, Number, Array, Object]);

/**
 * The global pipe: turns bodies and queries into their DTO classes and validates them. A body
 * that is not a JSON object is a 400; invalid members are a ValidationFailed (422 on /v2, 400 with
 * field errors on /v1). Unknown members are ignored, never applied (whitelist).
 */
@Injectable()
export class AppValidationPipe implements PipeTransform {
  transform(value: unknown, metadata: ArgumentMetadata) {
    const metatype = metadata.metatype;
    if (!metatype || PRIMITIVES.has(metatype) || (metadata.type !== 'body' && metadata.type !== 'query')) return value;
    if (metadata.type === 'body' && (value === null || typeof value !== 'object' || Array.isArray(value))) {
      throw badRequest('The request body must be a JSON object.');
    }
    const valid = transformValid(metatype, value ?? {});
    if (valid !== undefined) return metadata.type === 'query' ? matchable(valid) : valid;
    const instance = plainToInstance(metatype, value ?? {}, { enableImplicitConversion: false, exposeDefaultValues: true });
    const errors = validateWhitelisted(instance as object);
    if (errors.length) throw new ValidationFailed(toProblems(errors, metadata.type));
    return metadata.type === 'query' ? matchable(instance) : instance;
  }
}
