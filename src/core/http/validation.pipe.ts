import { ArgumentMetadata, Injectable, PipeTransform } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { ValidationError } from 'class-validator';
import { badRequest, FieldProblem, ValidationFailed } from './api-error';
import { drfMessages, failedConstraints } from './drf-messages';
import { transformValid, validateWhitelisted } from './fast-validate';

/** Flatten class-validator's error tree into problems with JSON pointers. */
export function toProblems(errors: ValidationError[], kind: 'body' | 'query' | 'param' | 'custom', basePointer = ''): FieldProblem[] {
  const out: FieldProblem[] = [];
  const walk = (errs: ValidationError[], path: string[]) => {
    for (const e of errs) {
      const here = [...path, e.property];
      // /v1 shows Django REST framework's messages, computed once per member from the value sent
      let v1: FieldProblem['v1'] | undefined;
      if (e.constraints && Object.keys(e.constraints).length) {
        const drf = drfMessages(e.value, failedConstraints(e));
        v1 = { field: drf.index === undefined ? here.join('.') : [...here, drf.index].join('.'), messages: drf.messages };
      }
      for (const message of Object.values(e.constraints ?? {})) {
        const field = here.join('.');
        // an element rule names the element it refused (`/content_items/0`)
        const at = v1 && v1.field !== field ? [...here, v1.field.slice(field.length + 1)] : here;
        out.push(kind === 'body' || kind === 'custom' ? { pointer: `${basePointer}/${at.join('/')}`, field, message, v1 } : { parameter: field, field, message, v1 });
        if (v1) v1 = { field: v1.field, messages: [] };
      }
      if (e.children?.length) walk(e.children, here);
    }
  };
  walk(errors, []);
  return out;
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
    if (valid !== undefined) return valid;
    const instance = plainToInstance(metatype, value ?? {}, { enableImplicitConversion: false, exposeDefaultValues: true });
    const errors = validateWhitelisted(instance as object);
    if (errors.length) throw new ValidationFailed(toProblems(errors, metadata.type));
    return instance;
  }
}
