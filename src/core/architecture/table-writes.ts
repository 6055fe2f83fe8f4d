import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

/**
 * A static scan of the source for the tables each module writes, used by the table-ownership test
 * (table-ownership.spec.ts) against the table -> module map of docs/architecture.md.
 *
 * What counts as a write: an SQL string `INSERT INTO t`, `UPDATE t`, `DELETE FROM t` (lower-case
 * table names, upper-case keywords, the house style), and TypeORM writes on an entity class
 * (`getRepository(E).save/insert/update/delete/...`, a repository variable or an injected
 * repository doing the same, `createQueryBuilder().insert().into(E)`, `.update(E)`,
 * `.delete().from(E)`, `manager.save/insert/update/delete(E, ...)`). Entities map to tables through
 * their `@Entity('table')` decorators.
 */

export interface TableWrite {
  /** `modules/<name>` or `core/<name>` */
  owner: string;
  file: string;
  line: number;
  table: string;
  how: string;
}

const WRITE_METHODS = 'save|insert|update|delete|remove|upsert|softDelete|restore|increment|decrement|clear';

export function listTsFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...listTsFiles(p));
    else if (p.endsWith('.ts') && !p.endsWith('.spec.ts') && !p.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

/** Entity class name -> table, from every `@Entity('table') export class Name` in these files. */
export function entityTables(files: { path: string; text: string }[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const f of files) {
    for (const m of f.text.matchAll(/@Entity\(\s*'([a-z_0-9]+)'[^)]*\)\s*(?:export\s+)?class\s+(\w+)/g)) out.set(m[2], m[1]);
  }
  return out;
}

const lineOf = (text: string, index: number) => text.slice(0, index).split('\n').length;

/** The writes in one file's text. `entities` maps entity class names to tables. */
export function writesIn(text: string, entities: Map<string, string>): { line: number; table: string; how: string }[] {
  const out: { line: number; table: string; how: string }[] = [];
  const add = (index: number, table: string | undefined, how: string) => {
    if (table) out.push({ line: lineOf(text, index), table, how });
  };
  // Comment lines (// ..., /** ..., * ...) are blanked first, keeping the line numbers.
  text = text
    .split('\n')
    .map((l) => (/^\s*(\/\/|\/\*|\*)/.test(l) ? '' : l))
    .join('\n');
  // SQL: INSERT INTO t / UPDATE t / DELETE FROM t (optionally "quoted" or schema-qualified public.t)
  // (a line break may follow INSERT INTO and DELETE FROM, not UPDATE: "... UPDATE\n" ends many a comment-like string)
  for (const m of text.matchAll(/\b(?:(INSERT\s+INTO|DELETE\s+FROM)\s+|(UPDATE)[ \t]+)(?:public\.)?"?([a-z_][a-z_0-9]*)"?/g)) {
    add(m.index!, m[3], (m[1] ?? m[2]).replace(/\s+/g, ' '));
  }
  // TypeORM on an entity class
  const entity = (name: string) => entities.get(name);
  const repoVars = new Map<string, string>();
  for (const m of text.matchAll(/(?:const|let)\s+(\w+)\s*=\s*[\w.]*getRepository\((\w+)\)\s*;/g)) if (entity(m[2])) repoVars.set(m[1], entity(m[2])!);
  for (const m of text.matchAll(/@InjectRepository\((\w+)\)\s*(?:private|protected|public)?\s*(?:readonly\s+)?(\w+)/g)) if (entity(m[1])) repoVars.set(`this.${m[2]}`, entity(m[1])!);
  for (const m of text.matchAll(new RegExp(`getRepository\\((\\w+)\\)\\s*\\.(${WRITE_METHODS})\\(`, 'g'))) add(m.index!, entity(m[1]), `repository.${m[2]}`);
  for (const m of text.matchAll(/getRepository\((\w+)\)\s*\.createQueryBuilder\([^)]*\)\s*\.(update|insert|delete)\(/g)) add(m.index!, entity(m[1]), `query builder ${m[2]}`);
  for (const [v, table] of repoVars) {
    const name = v.replace('.', '\\s*\\.\\s*');
    for (const m of text.matchAll(new RegExp(`(?<![\\w.])${name}\\s*\\.(${WRITE_METHODS})\\(`, 'g'))) add(m.index!, table, `repository.${m[1]}`);
    for (const m of text.matchAll(new RegExp(`(?<![\\w.])${name}\\s*\\.createQueryBuilder\\([^)]*\\)\\s*\\.(update|insert|delete)\\(`, 'g'))) add(m.index!, table, `query builder ${m[1]}`);
  }
  for (const m of text.matchAll(/\.into\((\w+)\)/g)) add(m.index!, entity(m[1]), 'insert into');
  for (const m of text.matchAll(/\.update\((\w+)\)\s*\.set\(/g)) add(m.index!, entity(m[1]), 'query builder update');
  for (const m of text.matchAll(/\.delete\(\)\s*\.from\((\w+)\)/g)) add(m.index!, entity(m[1]), 'query builder delete');
  for (const m of text.matchAll(new RegExp(`\\b(?:manager|m|em|tx|ds|dataSource)\\s*\\.(${WRITE_METHODS})\\(\\s*(\\w+)\\s*,`, 'g'))) add(m.index!, entity(m[2]), `manager.${m[1]}`);
  return out;
}

/** The owner of a file: `modules/<name>` or `core/<name>` for files under src/modules/<name>/ or src/core/<name>/, else null. */
export function ownerOf(srcDir: string, file: string): string | null {
  const parts = relative(srcDir, file).split(sep);
  if ((parts[0] === 'modules' || parts[0] === 'core') && parts.length > 2) return `${parts[0]}/${parts[1]}`;
  return null;
}

/** Every write in src/modules and src/core, with the module that makes it. */
export function scanWrites(srcDir: string): TableWrite[] {
  const files = [...listTsFiles(join(srcDir, 'modules')), ...listTsFiles(join(srcDir, 'core'))].map((path) => ({ path, text: readFileSync(path, 'utf8') }));
  const entities = entityTables(files);
  const out: TableWrite[] = [];
  for (const f of files) {
    const owner = ownerOf(srcDir, f.path);
    if (!owner || owner === 'core/architecture') continue;
    for (const w of writesIn(f.text, entities)) out.push({ owner, file: relative(srcDir, f.path), ...w });
  }
  return out;
}

/** The table -> owner map from the "Tables and their owners" table of docs/architecture.md (`| \`table\` | \`modules/x\` |`). */
export function parseOwnershipMap(markdown: string): Map<string, string> {
  const start = markdown.indexOf('## Tables and their owners');
  if (start < 0) throw new Error('docs/architecture.md has no "## Tables and their owners" section');
  const section = markdown.slice(start).split(/\n## /)[0].split('| table | written by | why |')[0];
  const map = new Map<string, string>();
  for (const m of section.matchAll(/^\|\s*`([a-z_0-9]+)`\s*\|\s*`((?:modules|core)\/[a-z0-9-]+)`\s*\|/gm)) {
    if (map.has(m[1])) throw new Error(`table ${m[1]} has two owners in docs/architecture.md`);
    map.set(m[1], m[2]);
  }
  return map;
}

/** The allowed writes by a non-owner: `| \`table\` | \`modules/x\` | reason |` rows of the "written by" table of the same section. */
export function parseSharedWrites(markdown: string): Set<string> {
  const start = markdown.indexOf('## Tables and their owners');
  const section = markdown.slice(start).split(/\n## /)[0];
  const at = section.indexOf('| table | written by | why |');
  const out = new Set<string>();
  if (at < 0) return out;
  for (const m of section.slice(at).matchAll(/^\|\s*`([a-z_0-9]+)`\s*\|\s*`((?:modules|core)\/[a-z0-9-]+)`\s*\|\s*\S[^|]*\|/gm)) out.add(`${m[1]} ${m[2]}`);
  return out;
}

/** A table write made inside the database by a function a migration defines (a trigger's or one it calls). */
export interface FunctionWrite {
  fn: string;
  table: string;
  file: string;
}

/**
 * The tables written by the database functions the migrations leave in the schema: every
 * `CREATE [OR REPLACE] FUNCTION name(...) ... $$ body $$` of a migration's up(), in migration order,
 * less those a later up() drops (`DROP FUNCTION [IF EXISTS] name`), with the writes of its body as
 * writesIn finds them. Such a write is made by whatever module's statement fired the trigger, so the
 * ownership test holds it to a row of its own in docs/architecture.md (function, table, the module
 * answerable for it).
 */
export function scanFunctionWrites(migrationsDir: string): FunctionWrite[] {
  const live = new Map<string, FunctionWrite[]>();
  for (const name of readdirSync(migrationsDir)
    .filter((n) => /^\d+-.*\.ts$/.test(n))
    .sort()) {
    const text = readFileSync(join(migrationsDir, name), 'utf8');
    const up = text.split(/\basync down\(/)[0];
    const events: { at: number; drop?: string; fn?: string; body?: string }[] = [];
    for (const m of up.matchAll(/CREATE\s+(?:OR\s+REPLACE\s+)?FUNCTION\s+([\w${}.]+)\s*\([\s\S]*?\$\$([\s\S]*?)\$\$/g)) events.push({ at: m.index!, fn: m[1], body: m[2] });
    for (const m of up.matchAll(/DROP\s+FUNCTION\s+(?:IF\s+EXISTS\s+)?([\w${}.]+)/g)) events.push({ at: m.index!, drop: m[1] });
    for (const e of events.sort((a, b) => a.at - b.at)) {
      if (e.drop) live.delete(e.drop);
      else
        live.set(
          e.fn!,
          [...new Set(writesIn(e.body!, new Map()).map((w) => w.table))].map((table) => ({ fn: e.fn!, table, file: `migrations/${name}` })),
        );
    }
  }
  return [...live.values()].flat();
}

/** The rows `| \`function\` | \`table\` | \`modules/x\` | why |` of the "| function | writes | declared by | why |" table of the same section. */
export function parseFunctionWrites(markdown: string): { fn: string; table: string; owner: string }[] {
  const start = markdown.indexOf('## Tables and their owners');
  const section = markdown.slice(start).split(/\n## /)[0];
  const at = section.indexOf('| function | writes | declared by | why |');
  if (at < 0) return [];
  return [...section.slice(at).matchAll(/^\|\s*`([\w${}.]+)`\s*\|\s*`([a-z_0-9]+)`\s*\|\s*`((?:modules|core)\/[a-z0-9-]+)`\s*\|\s*\S[^|]*\|/gm)].map((m) => ({ fn: m[1], table: m[2], owner: m[3] }));
}
