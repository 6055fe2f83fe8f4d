/** Which members of a PUT/PATCH body an update writes, each with the row property it sets. */
export type SentNames<B, R> = { [K in keyof B]?: keyof R };

/**
 * The members of a PUT/PATCH body that were sent (not undefined), as the row properties `names`
 * gives them, in the order `names` lists them: an update's changes (none sent: an empty object).
 */
export function sentMembers<B extends object, R>(body: B, names: SentNames<B, R>): Partial<R> {
  const out: Partial<Record<keyof R, unknown>> = {};
  for (const member of Object.keys(names) as (keyof B & string)[]) {
    if (body[member] !== undefined) out[names[member]!] = body[member];
  }
  return out as Partial<R>;
}
