import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { Client } from 'pg';
import * as ts from 'typescript';
import { cloneDatabase, dbUrl, dropDatabase } from '../../../test/support/db';
import { allowed, kindsOf } from './column-kinds';

/**
 * Every store's row type against the migrated schema (docs/decisions/data-access.md "Row types"),
 * as table-ownership.spec.ts checks the writes. A row type is an interface whose doc comment says
 * `@table <table>`; each member is a column of that table (or `@column <table>.<column>` for a
 * joined or renamed one, or `@computed` for an expression), its TypeScript type what pg gives
 * for the column's type, with `| null` exactly when the column is nullable. Every exported
 * `...Row` interface of a `*.store.ts` file must be such a row type.
 */

const SRC = join(__dirname, '..', '..');

function tsFiles(dir: string, out: string[] = []): string[] {
  for (const n of readdirSync(dir)) {
    const p = join(dir, n);
    if (statSync(p).isDirectory()) tsFiles(p, out);
    else if (n.endsWith('.ts') && !n.endsWith('.spec.ts')) out.push(p);
  }
  return out;
}

interface Member {
  name: string;
  table: string;
  column: string;
  kinds: Set<string>;
  computed: boolean;
}
interface RowType {
  name: string;
  file: string;
  table: string;
  members: Member[];
}

const tagText = (t: ts.JSDocTag) => (typeof t.comment === 'string' ? t.comment : (t.comment ?? []).map((c) => c.text).join('')).trim();

function rowTypes(): RowType[] {
  // the files that declare row types, or must (stores); the checker follows their imports
  const files = tsFiles(SRC).filter((f) => f.endsWith('.store.ts') || readFileSync(f, 'utf8').includes('@table'));
  const program = ts.createProgram(files, { strict: true, experimentalDecorators: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.CommonJS, skipLibCheck: true, types: [] });
  const checker = program.getTypeChecker();
  const out: RowType[] = [];
  const untagged: string[] = [];
  for (const sf of program.getSourceFiles()) {
    if (!sf.fileName.startsWith(SRC) || sf.fileName.endsWith('.spec.ts')) continue;
    const file = relative(SRC, sf.fileName);
    ts.forEachChild(sf, (node) => {
      if (!ts.isInterfaceDeclaration(node)) return;
      const tableTag = ts.getJSDocTags(node).find((t) => t.tagName.text === 'table');
      const exported = node.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
      if (!tableTag) {
        if (exported && file.endsWith('.store.ts') && node.name.text.endsWith('Row')) untagged.push(`${file} ${node.name.text}`);
        return;
      }
      const table = tagText(tableTag);
      const type = checker.getTypeAtLocation(node);
      const members: Member[] = [];
      for (const prop of checker.getPropertiesOfType(type)) {
        const decl = prop.valueDeclaration ?? prop.declarations?.[0];
        if (!decl) continue;
        const tags = ts.getJSDocTags(decl);
        const col = tags.find((t) => t.tagName.text === 'column');
        const [t, c] = col ? tagText(col).split('.') : [table, prop.getName()];
        // a member declared in another tagged interface (extends) is checked against that one's table
        const owner = decl.parent && ts.isInterfaceDeclaration(decl.parent) ? ts.getJSDocTags(decl.parent).find((x) => x.tagName.text === 'table') : undefined;
        members.push({
          name: prop.getName(),
          table: col ? t : owner ? tagText(owner) : table,
          column: c,
          kinds: kindsOf(checker, checker.getTypeOfSymbolAtLocation(prop, node)),
          computed: tags.some((x) => x.tagName.text === 'computed'),
        });
      }
      out.push({ name: node.name.text, file, table, members });
    });
  }
  expect(untagged).toEqual([]);
  return out;
}

describe('row types against the migrated schema', () => {
  let db: string;
  let columns: Map<string, { type: string; nullable: boolean }>;
  beforeAll(async () => {
    db = await cloneDatabase();
    const c = new Client({ connectionString: dbUrl(db) });
    await c.connect();
    try {
      const { rows } = await c.query(`SELECT table_name, column_name, data_type, is_nullable FROM information_schema.columns WHERE table_schema = 'public'`);
      columns = new Map(rows.map((r) => [`${r.table_name}.${r.column_name}`, { type: r.data_type, nullable: r.is_nullable === 'YES' }]));
    } finally {
      await c.end();
    }
  });
  afterAll(async () => {
    if (db) await dropDatabase(db);
  });

  it('every row type names columns that exist, with their types and nullability', () => {
    const types = rowTypes();
    // the check finds the row types it is meant to check (a check that finds none would pass vacuously)
    expect(types.map((t) => t.name)).toEqual(expect.arrayContaining(['PurchaseRow', 'CourseRow', 'CourseViewRow', 'LessonListRow', 'PublishedCourseRow', 'PublishedCourseV2Row']));
    const problems: string[] = [];
    for (const t of types) {
      for (const m of t.members) {
        if (m.computed) continue;
        const col = columns.get(`${m.table}.${m.column}`);
        const at = `${t.file} ${t.name}.${m.name}`;
        if (!col) {
          problems.push(`${at}: no column ${m.table}.${m.column}`);
          continue;
        }
        const ok = allowed(col.type);
        const bad = [...m.kinds].filter((k) => k !== 'null' && !ok.has(k));
        if (bad.length) problems.push(`${at}: ${[...m.kinds].join(' | ')} for ${m.table}.${m.column} (${col.type})`);
        if (col.nullable && !m.kinds.has('null')) problems.push(`${at}: ${m.table}.${m.column} is nullable, the type has no null`);
        if (!col.nullable && m.kinds.has('null')) problems.push(`${at}: ${m.table}.${m.column} is NOT NULL, the type admits null`);
      }
    }
    expect(problems).toEqual([]);
  });
});
