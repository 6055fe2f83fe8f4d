/**
 * OpenAPI 3.0's `nullable: true` as OpenAPI 3.1 says it (a `null` type), in place: `type: [T, "null"]`
 * (and `null` in an `enum`), `allOf: [X]` + nullable as `anyOf: [X, {type: null}]`, a `oneOf` given
 * `{type: null}`. The same conversion scripts/openapi-published.js applies to the published /v1
 * document; here for the schemas @nestjs/swagger and the /v1 rules write (request-schemas.ts).
 */
export function nullableTo31(node: unknown): void {
  if (Array.isArray(node)) {
    for (const n of node) nullableTo31(n);
    return;
  }
  if (!node || typeof node !== 'object' || Object.isFrozen(node)) return;
  const s = node as Record<string, any>;
  for (const v of Object.values(s)) nullableTo31(v);
  if (s.nullable === undefined) return;
  const nullable = s.nullable === true;
  delete s.nullable;
  if (!nullable) return;
  if (typeof s.type === 'string') {
    s.type = [s.type, 'null'];
    if (Array.isArray(s.enum) && !s.enum.includes(null)) s.enum.push(null);
  } else if (Array.isArray(s.type)) {
    if (!s.type.includes('null')) s.type.push('null');
  } else if (Array.isArray(s.allOf) && s.allOf.length === 1) {
    s.anyOf = [s.allOf[0], { type: 'null' }];
    delete s.allOf;
  } else if (Array.isArray(s.oneOf) && !s.oneOf.some((x: any) => x?.type === 'null')) {
    s.oneOf.push({ type: 'null' });
  }
}
