import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { Client } from 'pg';
import * as ts from 'typescript';
import { DataSource, EntityMetadata, getMetadataArgsStorage } from 'typeorm';
import { cloneDatabase, dbUrl, dropDatabase } from '../../../test/support/db';
import { parseOwnershipMap } from '../architecture/table-writes';
import { allowed, kindsOf } from './column-kinds';
import { SnakeNamingStrategy } from './naming.strategy';

/**
 * Every table of the migrated schema is declared by one TypeORM entity (docs/decisions/data-access.md
 * "Entities everywhere"): the entity names the table's columns, each with its type and nullability,
 * and its primary key; it lives in the folder of the table's owner (docs/architecture.md "Tables and
 * their owners") and is registered there (`TypeOrmModule.forFeature`). Left out: the migration
 * bookkeeping (`schema_migrations`) and partitions (the parent's entity declares them; there are none
 * today).
 */

const ROOT = join(__dirname, '..', '..', '..');
const SRC = join(ROOT, 'src');
const NOT_DECLARED = new Set(['schema_migrations']);

function tsFiles(dir: string, out: string[] = []): string[] {
  for (const n of readdirSync(dir)) {
    const p = join(dir, n);
    if (statSync(p).isDirectory()) tsFiles(p, out);
    else if (n.endsWith('.ts') && !n.endsWith('.spec.ts') && !n.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

/** `modules/<name>` or `core/<name>` of a file under src/. */
const unitOf = (file: string) => relative(SRC, file).split(sep).slice(0, 2).join('/');

interface Declared {
  className: string;
  file: string;
  metadata: EntityMetadata;
}

export interface SchemaColumn {
  dataType: string;
  udtName: string;
  nullable: boolean;
  maxLength: number | null;
}
export interface Schema {
  tables: Set<string>;
  /** `<table>.<column>` */
  columns: Map<string, SchemaColumn>;
  /** table -> its primary key's columns, sorted (for a table without one: its unique index without predicate) */
  keys: Map<string, string[]>;
}

/** What an entity declares, reduced to what the schema is compared with. */
export interface EntityDecl {
  name: string;
  table: string;
  columns: { property: string; column: string; type: string; isArray: boolean; nullable: boolean; length: string; primary: boolean }[];
}

const ARRAY_UDT: Record<string, string> = { text: '_text', uuid: '_uuid', integer: '_int4', bigint: '_int8', smallint: '_int2', boolean: '_bool', 'character varying': '_varchar' };

/** The differences between the entities and the schema, one line each. */
export function compare(entities: EntityDecl[], schema: Schema): string[] {
  const problems: string[] = [];
  const byTable = new Map<string, EntityDecl[]>();
  for (const e of entities) byTable.set(e.table, [...(byTable.get(e.table) ?? []), e]);
  for (const t of [...schema.tables].sort()) {
    if (NOT_DECLARED.has(t)) continue;
    const es = byTable.get(t) ?? [];
    if (es.length === 0) problems.push(`${t}: no entity`);
    if (es.length > 1) problems.push(`${t}: ${es.length} entities (${es.map((e) => e.name).join(', ')})`);
  }
  for (const e of entities) {
    if (!schema.tables.has(e.table)) {
      problems.push(`${e.name}: no table ${e.table}`);
      continue;
    }
    const declared = new Set(e.columns.map((c) => c.column));
    for (const key of schema.columns.keys()) {
      const [t, c] = key.split('.');
      if (t === e.table && !declared.has(c)) problems.push(`${e.name}: column ${key} is not declared`);
    }
    for (const c of e.columns) {
      const at = `${e.name}.${c.property}`;
      const col = schema.columns.get(`${e.table}.${c.column}`);
      if (!col) {
        problems.push(`${at}: no column ${e.table}.${c.column}`);
        continue;
      }
      const typeOk = c.isArray ? col.dataType === 'ARRAY' && col.udtName === ARRAY_UDT[c.type] : col.dataType === c.type;
      if (!typeOk) problems.push(`${at}: ${c.type}${c.isArray ? '[]' : ''} for ${e.table}.${c.column} (${col.dataType === 'ARRAY' ? col.udtName : col.dataType})`);
      if (col.maxLength !== null && String(col.maxLength) !== c.length) problems.push(`${at}: length ${c.length || 'none'} for ${e.table}.${c.column} (${col.maxLength})`);
      if (col.nullable !== c.nullable) problems.push(`${at}: ${c.nullable ? 'nullable' : 'not nullable'}, ${e.table}.${c.column} is ${col.nullable ? 'nullable' : 'NOT NULL'}`);
    }
    const key = e.columns
      .filter((c) => c.primary)
      .map((c) => c.column)
      .sort();
    const expected = schema.keys.get(e.table) ?? [];
    if (key.join(',') !== expected.join(',')) problems.push(`${e.name}: primary key (${key.join(', ')}), ${e.table}'s is (${expected.join(', ')})`);
  }
  return problems;
}

async function readSchema(url: string): Promise<Schema> {
  const c = new Client({ connectionString: url });
  await c.connect();
  try {
    const tables = await c.query<{ name: string }>(
      `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND NOT c.relispartition`,
    );
    const columns = await c.query<{ table_name: string; column_name: string; data_type: string; udt_name: string; is_nullable: string; character_maximum_length: number | null }>(
      `SELECT table_name, column_name, data_type, udt_name, is_nullable, character_maximum_length FROM information_schema.columns WHERE table_schema = 'public'`,
    );
    // the primary key, or for a table without one its first unique index without predicate
    const keys = await c.query<{ table: string; columns: string[] }>(
      `SELECT DISTINCT ON (t.relname) t.relname AS table, array_agg(a.attname::text ORDER BY a.attname) AS columns
         FROM pg_index i JOIN pg_class t ON t.oid = i.indrelid JOIN pg_namespace n ON n.oid = t.relnamespace
         JOIN pg_class ix ON ix.oid = i.indexrelid
         JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = ANY (i.indkey)
        WHERE n.nspname = 'public' AND (i.indisprimary OR (i.indisunique AND i.indpred IS NULL))
        GROUP BY t.relname, i.indisprimary, ix.relname
        ORDER BY t.relname, i.indisprimary DESC, ix.relname`,
    );
    const tableSet = new Set(tables.rows.map((r) => r.name));
    return {
      tables: tableSet,
      columns: new Map(
        columns.rows
          .filter((r) => tableSet.has(r.table_name))
          .map((r) => [`${r.table_name}.${r.column_name}`, { dataType: r.data_type, udtName: r.udt_name, nullable: r.is_nullable === 'YES', maxLength: r.character_maximum_length }]),
      ),
      keys: new Map(keys.rows.map((r) => [r.table, r.columns])),
    };
  } finally {
    await c.end();
  }
}

/** Every entity class of src/, with the file that declares it. */
function entityClasses(): { className: string; file: string; target: Function }[] {
  const out: { className: string; file: string; target: Function }[] = [];
  const targets = () => new Set(getMetadataArgsStorage().tables.map((t) => t.target));
  for (const file of tsFiles(SRC).filter((f) => /@Entity\(/.test(readFileSync(f, 'utf8')))) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const mod = require(file) as Record<string, unknown>;
    const entities = targets();
    for (const [name, value] of Object.entries(mod)) if (typeof value === 'function' && entities.has(value)) out.push({ className: name, file, target: value });
  }
  return out;
}

describe('entities against the migrated schema', () => {
  let db: string;
  let schema: Schema;
  let declared: Declared[];
  let ds: DataSource;
  beforeAll(async () => {
    db = await cloneDatabase();
    schema = await readSchema(dbUrl(db));
    const classes = entityClasses();
    ds = new DataSource({ type: 'postgres', url: dbUrl(db), entities: classes.map((c) => c.target), namingStrategy: new SnakeNamingStrategy(), poolSize: 1 });
    await ds.initialize();
    declared = classes.map((c) => ({ className: c.className, file: c.file, metadata: ds.getMetadata(c.target) }));
  });
  afterAll(async () => {
    if (ds?.isInitialized) await ds.destroy();
    if (db) await dropDatabase(db);
  });

  const decl = (d: Declared): EntityDecl => ({
    name: d.className,
    table: d.metadata.tableName,
    columns: d.metadata.columns.map((c) => ({
      property: c.propertyName,
      column: c.databaseName,
      type: ds.driver.normalizeType(c),
      isArray: c.isArray,
      nullable: c.isNullable,
      length: c.length,
      primary: c.isPrimary,
    })),
  });

  it('every table has one entity, with its columns, their types and nullability, and its primary key', () => {
    // the schema is read (a check that finds no table would pass vacuously)
    expect([...schema.tables]).toEqual(expect.arrayContaining(['users', 'courses', 'outbox_events', 'lrs_statement_agents']));
    expect(compare(declared.map(decl), schema)).toEqual([]);
  });

  it("each entity's properties are typed as the column's values are, with null exactly when the column is nullable", () => {
    const files = [...new Set(declared.map((d) => d.file))];
    const program = ts.createProgram(files, { strict: true, experimentalDecorators: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.CommonJS, skipLibCheck: true, types: [] });
    const checker = program.getTypeChecker();
    const problems: string[] = [];
    let checked = 0;
    for (const d of declared) {
      const sf = program.getSourceFile(d.file)!;
      const cls = sf.statements.find((n): n is ts.ClassDeclaration => ts.isClassDeclaration(n) && n.name?.text === d.className)!;
      const type = checker.getTypeAtLocation(cls);
      for (const c of d.metadata.columns) {
        const col = schema.columns.get(`${d.metadata.tableName}.${c.databaseName}`);
        const prop = type.getProperty(c.propertyName);
        if (!col || !prop) continue; // a missing column is the first test's
        checked++;
        const kinds = kindsOf(checker, checker.getTypeOfSymbolAtLocation(prop, cls));
        const at = `${d.className}.${c.propertyName}`;
        const ok = allowed(col.dataType);
        // a column left out of reads (select: false) may be absent: `?`
        const bad = [...kinds].filter((k) => k !== 'null' && !(k === 'undefined' && !c.isSelect) && !ok.has(k));
        if (bad.length) problems.push(`${at}: ${[...kinds].join(' | ')} for ${d.metadata.tableName}.${c.databaseName} (${col.dataType})`);
        // `unknown` (a jsonb document) admits null as it is
        if (!kinds.has('any') && col.nullable !== kinds.has('null'))
          problems.push(`${at}: ${d.metadata.tableName}.${c.databaseName} is ${col.nullable ? 'nullable, the type has no null' : 'NOT NULL, the type admits null'}`);
      }
    }
    expect(checked).toBeGreaterThan(500);
    expect(problems).toEqual([]);
  });

  it("each entity lives in its table's owner module and is registered there", () => {
    const owners = parseOwnershipMap(readFileSync(join(ROOT, 'docs', 'architecture.md'), 'utf8'));
    const registrations = new Set<string>(); // `<class name> <unit whose forFeature lists it>`
    for (const f of tsFiles(SRC)) {
      for (const m of readFileSync(f, 'utf8').matchAll(/TypeOrmModule\.forFeature\(\s*\[([^\]]*)\]/g)) {
        for (const name of m[1].split(',').map((s) => s.trim())) if (name) registrations.add(`${name} ${unitOf(f)}`);
      }
    }
    const problems: string[] = [];
    for (const d of declared) {
      const owner = owners.get(d.metadata.tableName);
      const unit = unitOf(d.file);
      if (owner !== unit) problems.push(`${d.className} (${d.metadata.tableName}) is declared in ${unit}, the table's owner is ${owner ?? 'nobody'}`);
      if (!registrations.has(`${d.className} ${unit}`)) problems.push(`${d.className} (${d.metadata.tableName}) is not in a TypeOrmModule.forFeature of ${unit}`);
    }
    expect(problems).toEqual([]);
  });
});

describe('the entity check', () => {
  const schema = (): Schema => ({
    tables: new Set(['a', 'b', 'schema_migrations']),
    columns: new Map([
      ['a.id', { dataType: 'uuid', udtName: 'uuid', nullable: false, maxLength: null }],
      ['a.name', { dataType: 'text', udtName: 'text', nullable: true, maxLength: null }],
      ['a.tags', { dataType: 'ARRAY', udtName: '_text', nullable: false, maxLength: null }],
      ['a.code', { dataType: 'character varying', udtName: 'varchar', nullable: false, maxLength: 8 }],
      ['b.a_id', { dataType: 'uuid', udtName: 'uuid', nullable: false, maxLength: null }],
      ['b.n', { dataType: 'integer', udtName: 'int4', nullable: false, maxLength: null }],
    ]),
    keys: new Map([
      ['a', ['id']],
      ['b', ['a_id', 'n']],
    ]),
  });
  const col = (property: string, column: string, type: string, o: Partial<EntityDecl['columns'][number]> = {}) => ({
    property,
    column,
    type,
    isArray: false,
    nullable: false,
    length: '',
    primary: false,
    ...o,
  });
  const entities = (): EntityDecl[] => [
    {
      name: 'A',
      table: 'a',
      columns: [
        col('id', 'id', 'uuid', { primary: true }),
        col('name', 'name', 'text', { nullable: true }),
        col('tags', 'tags', 'text', { isArray: true }),
        col('code', 'code', 'character varying', { length: '8' }),
      ],
    },
    { name: 'B', table: 'b', columns: [col('aId', 'a_id', 'uuid', { primary: true }), col('n', 'n', 'integer', { primary: true })] },
  ];

  it('accepts entities that match', () => {
    expect(compare(entities(), schema())).toEqual([]);
  });

  it('finds a table without entity, an entity of a missing table, missing and unknown columns, wrong types, nullability and keys', () => {
    const s = schema();
    s.tables.add('c');
    s.columns.set('a.extra', { dataType: 'text', udtName: 'text', nullable: true, maxLength: null });
    const es = entities();
    es.push({ name: 'D', table: 'd', columns: [] });
    es[0].columns[1].nullable = false;
    es[0].columns[2].isArray = false;
    es[0].columns[3].length = '';
    es[0].columns.push(col('gone', 'gone', 'text'));
    es[1].columns[1] = col('n', 'n', 'bigint');
    expect(compare(es, s)).toEqual([
      'c: no entity',
      'A: column a.extra is not declared',
      'A.name: not nullable, a.name is nullable',
      'A.tags: text for a.tags (_text)',
      'A.code: length none for a.code (8)',
      'A.gone: no column a.gone',
      'B.n: bigint for b.n (integer)',
      "B: primary key (a_id), b's is (a_id, n)",
      'D: no table d',
    ]);
  });
});
