/**
 * CONVENTIONS §16: an optional member of a published schema that has no value is left out of the
 * answer, unless the published schema marks it nullable (then `null`). Presenters name the members
 * the published schema makes optional and not nullable; `omitEmpty` removes those whose value is
 * null or undefined (in place, and returns the object for chaining). The conformance sweep
 * (test/platform/conformance.e2e-spec.ts) checks every published answer against the document.
 */
export function omitEmpty<T extends object, K extends keyof T>(o: T, members: readonly K[]): Omit<T, K> & { [P in K]?: NonNullable<T[P]> } {
  const out = o as Partial<T>;
  for (const k of members) if (out[k] === null || out[k] === undefined) delete out[k];
  return out as Omit<T, K> & { [P in K]?: NonNullable<T[P]> };
}

/** A hand JSON writer's optional member: `,"name":<json>` when it has a value, nothing when null. */
export const optionalJson = (name: string, json: string): string => (json === 'null' ? '' : `,"${name}":${json}`);
