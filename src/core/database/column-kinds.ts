import * as ts from 'typescript';

/**
 * What a TypeScript type admits against what pg answers for a column's type: shared by the checks of
 * the row types (row-types.spec.ts) and of the entities (entities.spec.ts) against the migrated
 * schema. Used by specs only.
 */

/** The kinds a TypeScript type admits: string, number, boolean, null, Date, Buffer, array, object. */
export function kindsOf(checker: ts.TypeChecker, type: ts.Type): Set<string> {
  const out = new Set<string>();
  const parts = type.isUnion() ? type.types : [type];
  for (const t of parts) {
    if (t.flags & ts.TypeFlags.Null) out.add('null');
    else if (t.flags & ts.TypeFlags.Undefined) out.add('undefined');
    else if (t.flags & ts.TypeFlags.StringLike) out.add('string');
    else if (t.flags & ts.TypeFlags.NumberLike) out.add('number');
    else if (t.flags & ts.TypeFlags.BooleanLike) out.add('boolean');
    else if (t.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) out.add('any');
    else if (checker.isArrayType(t)) out.add('array');
    else if (t.getSymbol()?.getName() === 'Date') out.add('Date');
    else if (t.getSymbol()?.getName() === 'Buffer') out.add('Buffer');
    else out.add('object');
  }
  return out;
}

/** What a column's values are in JavaScript, as pg parses them by default (timestamps may be kept as text: TEXT_TIMESTAMPS). */
export function allowed(dataType: string): Set<string> {
  switch (dataType) {
    case 'uuid':
    case 'text':
    case 'character varying':
    case 'character':
    case 'citext':
    case 'inet':
    case 'USER-DEFINED':
    case 'tsvector':
    case 'bigint': // int8 and numeric come as text
    case 'numeric':
      return new Set(['string']);
    case 'integer':
    case 'smallint':
    case 'real':
    case 'double precision':
      return new Set(['number']);
    case 'boolean':
      return new Set(['boolean']);
    case 'timestamp with time zone':
    case 'timestamp without time zone':
    case 'date':
      return new Set(['Date', 'string']);
    case 'json':
    case 'jsonb':
      return new Set(['object', 'array', 'string', 'number', 'boolean', 'any']);
    case 'ARRAY':
      return new Set(['array']);
    case 'bytea':
      return new Set(['Buffer']);
    default:
      return new Set([dataType]);
  }
}
