import { parse } from 'scim2-parse-filter';

/** A SCIM error (RFC 7644 section 3.12): status, detail and, for 400s, the scimType. */
export class ScimError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly scimType?: string,
  ) {
    super(detail);
  }
}

export interface ScimAttr {
  /** the SQL expression of the attribute */
  sql: string;
  type: 'string' | 'boolean' | 'date' | 'id' | 'member';
  /** caseExact false: compared lowercased */
  ci?: boolean;
  /** turns an id-like value into the uuid it names (null: matches nothing) */
  decode?: (v: string) => string | null;
}

/**
 * A SCIM filter (RFC 7644 3.4.2.2: eq, ne, co, sw, ew, gt, ge, lt, le, pr, and, or, not, grouping)
 * compiled to a SQL condition over the attributes given (names compared case-insensitively, as the
 * RFC says), values bound as parameters. Parsed by scim2-parse-filter; an attribute we do not know,
 * or a value of the wrong type, is 400 invalidFilter.
 */
export function compileFilter(text: string, attrs: Record<string, ScimAttr>, params: unknown[]): string {
  let ast: any;
  try {
    ast = parse(text);
  } catch (e) {
    throw new ScimError(400, `The filter is not valid: ${(e as Error).message}`.slice(0, 300), 'invalidFilter');
  }
  const byName = new Map(Object.entries(attrs).map(([k, v]) => [k.toLowerCase(), v]));
  const bind = (v: unknown) => `$${params.push(v)}`;
  const walk = (f: any): string => {
    switch (f.op) {
      case 'and':
      case 'or':
        return '(' + f.filters.map(walk).join(f.op === 'and' ? ' AND ' : ' OR ') + ')';
      case 'not':
        return `NOT (${walk(f.filter)})`;
      case '[]':
        // emails[type eq "work"] and similar: the value filter over a multi-valued attribute
        return walk(prefixed(f.valFilter, f.attrPath));
    }
    const path = String(f.attrPath ?? '')
      .replace(/^urn:ietf:params:scim:schemas:core:2\.0:(User|Group):/i, '')
      .toLowerCase();
    const a = byName.get(path) ?? (path.endsWith('.type') || path.endsWith('.primary') ? { sql: 'TRUE', type: 'boolean' as const } : undefined);
    if (!a) throw new ScimError(400, `The filter names an attribute this server cannot filter on: ${f.attrPath}.`, 'invalidFilter');
    if (a.sql === 'TRUE') return 'TRUE'; // emails[type eq "work"]: every student has exactly one (work, primary) email
    if (f.op === 'pr') return a.type === 'string' ? `(${a.sql} IS NOT NULL AND ${a.sql} <> '')` : `(${a.sql} IS NOT NULL)`;
    const v = f.compValue;
    if (a.type === 'boolean') {
      const b = typeof v === 'boolean' ? v : typeof v === 'string' && /^(true|false)$/i.test(v) ? v.toLowerCase() === 'true' : undefined;
      if (b === undefined || (f.op !== 'eq' && f.op !== 'ne')) throw new ScimError(400, `${f.attrPath} is compared with eq or ne to true or false.`, 'invalidFilter');
      return `(${a.sql}) ${f.op === 'eq' ? '=' : '<>'} ${bind(b)}::boolean`;
    }
    if (typeof v !== 'string') throw new ScimError(400, `${f.attrPath} is compared to a string.`, 'invalidFilter');
    if (a.type === 'id' || a.type === 'member') {
      const uuid = a.decode!(v);
      if (f.op !== 'eq' && f.op !== 'ne') throw new ScimError(400, `${f.attrPath} is compared with eq or ne.`, 'invalidFilter');
      if (!uuid) return f.op === 'eq' ? 'FALSE' : 'TRUE';
      if (a.type === 'member') return `${f.op === 'ne' ? 'NOT ' : ''}${a.sql.replace('$value', bind(uuid) + '::uuid')}`;
      return `${a.sql} ${f.op === 'eq' ? '=' : '<>'} ${bind(uuid)}::uuid`;
    }
    if (a.type === 'date') {
      const d = new Date(v);
      if (Number.isNaN(d.getTime())) throw new ScimError(400, `${f.attrPath} is compared to a date-time.`, 'invalidFilter');
      const op = { eq: '=', ne: '<>', gt: '>', ge: '>=', lt: '<', le: '<=' }[f.op as string];
      if (!op) throw new ScimError(400, `${f.op} does not apply to ${f.attrPath}.`, 'invalidFilter');
      return `${a.sql} ${op} ${bind(d)}::timestamptz`;
    }
    const col = a.ci ? `lower(${a.sql})` : a.sql;
    const val = a.ci ? `lower(${bind(v)})` : bind(v);
    switch (f.op) {
      case 'eq':
        return `${col} = ${val}`;
      case 'ne':
        return `${col} IS DISTINCT FROM ${val}`;
      case 'co':
        return `strpos(${col}, ${val}) > 0`;
      case 'sw':
        return `starts_with(${col}, ${val})`;
      case 'ew':
        return `right(${col}, length(${val})) = ${val}`;
      case 'gt':
        return `${col} > ${val}`;
      case 'ge':
        return `${col} >= ${val}`;
      case 'lt':
        return `${col} < ${val}`;
      case 'le':
        return `${col} <= ${val}`;
    }
    throw new ScimError(400, `Unknown filter operator ${f.op}.`, 'invalidFilter');
  };
  return walk(ast);
}

/** A value filter's tree with each attribute named under `parent` (emails[value eq "x"] → emails.value eq "x"). */
function prefixed(f: any, parent: string): any {
  if (f.op === 'and' || f.op === 'or') return { ...f, filters: f.filters.map((x: any) => prefixed(x, parent)) };
  if (f.op === 'not') return { ...f, filter: prefixed(f.filter, parent) };
  return { ...f, attrPath: `${parent}.${f.attrPath}` };
}

/** startIndex (1-based) and count of a SCIM list (RFC 7644 3.4.2.4): below 1 is 1; count capped at 200, negative 0. */
export function scimPaging(query: Record<string, unknown>): { startIndex: number; count: number } {
  const num = (name: string, dflt: number) => {
    const raw = query[name];
    if (raw === undefined || raw === '') return dflt;
    const n = Number(raw);
    if (typeof raw !== 'string' || !Number.isInteger(n)) throw new ScimError(400, `${name} must be an integer.`, 'invalidValue');
    return n;
  };
  return { startIndex: Math.max(1, num('startIndex', 1)), count: Math.min(200, Math.max(0, num('count', 100))) };
}
