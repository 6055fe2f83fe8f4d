import type { ValidationError } from 'class-validator';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { ValidationExecutor } = require('class-validator/cjs/validation/ValidationExecutor') as { ValidationExecutor: { prototype: any } };

/**
 * Closed request objects (issue 25 item 8): a published request schema with
 * `additionalProperties: false` (the /v2 document has 13: QuizCreateRequest, AnswerCreateRequest,
 * _MembershipStudentRefData, ...) refuses a member it does not declare, where every other request
 * object ignores it (whitelist: dropped, never applied). The DTO class of such a schema is marked
 * `@Closed()`; an unknown member of one of its objects is then a validation error naming the
 * member (`/data/0/attributes/answers/0/order` on /v2: the item's `validation_error` in a batch,
 * a 422 elsewhere), from both validation paths:
 *
 * - the slow path is class-validator's own: its whitelist step (ValidationExecutor.whitelist, run
 *   before the members are checked, as `forbidNonWhitelisted` does for every class) reports each
 *   unknown member of a closed object under the constraint `closed`, for that class only;
 * - the fast path (fast-validate.ts) leaves a closed object with an unknown member to the slow path,
 *   in the key walk it already does to whitelist (nothing more for open classes).
 *
 * Closedness is the class's own (a subclass is closed only when marked itself): each published
 * schema is marked on the class that validates it. test: src/core/http/closed.spec.ts checks every
 * `additionalProperties: false` schema of the published document against its class.
 */
const CLOSED = new WeakMap<Function, Readonly<Record<string, string>>>();

/** The constraint name of an unknown member of a closed object. */
export const CLOSED_CONSTRAINT = 'closed';
export const CLOSED_MESSAGE = 'is not a member of this object.';

/**
 * Mark a request DTO class as closed (its published schema has `additionalProperties: false`).
 * `reasons`: a more telling message for some members it does not take (`slug: 'is set when
 * publishing; it cannot change here.'`).
 */
export const Closed =
  (reasons: Record<string, string> = {}): ClassDecorator =>
  (cls) => {
    CLOSED.set(cls, Object.freeze({ ...reasons }));
  };

export const isClosed = (cls: unknown): boolean => typeof cls === 'function' && CLOSED.has(cls);

/** The message for unknown member `key` of closed class `cls`. */
export function closedMessage(cls: Function, key: string): string {
  const reason = CLOSED.get(cls)?.[key];
  return reason ?? CLOSED_MESSAGE;
}

const PATCHED = Symbol.for('course-platform.closed-classes');
const proto = ValidationExecutor.prototype;
if (!proto[PATCHED]) {
  proto[PATCHED] = true;
  const whitelist = proto.whitelist as (object: any, grouped: Record<string, unknown[]>, errors: ValidationError[]) => void;
  if (typeof whitelist !== 'function') throw new Error('class-validator: ValidationExecutor.whitelist is gone; core/http/closed.ts needs another hook');
  proto.whitelist = function closedWhitelist(this: any, object: any, grouped: Record<string, unknown[]>, errors: ValidationError[]) {
    const cls = object?.constructor;
    if (typeof cls === 'function' && CLOSED.has(cls)) {
      for (const key of Object.keys(object)) {
        if (grouped[key]?.length) continue;
        const error: ValidationError = this.generateValidationError(object, object[key], key);
        error.constraints = { [CLOSED_CONSTRAINT]: closedMessage(cls, key) };
        error.children = [];
        errors.push(error);
      }
    }
    return whitelist.call(this, object, grouped, errors);
  };
}
