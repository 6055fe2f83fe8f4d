import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseFunctionWrites, parseOwnershipMap, parseSharedWrites, scanFunctionWrites, scanWrites, writesIn } from './table-writes';

const ROOT = join(__dirname, '..', '..', '..');
const SRC = join(ROOT, 'src');

/** Every table the migrations create (the live schema; the DROP TABLEs are in down()), plus TypeORM's own. */
function schemaTables(): Set<string> {
  const dir = join(ROOT, 'migrations');
  const out = new Set<string>(['schema_migrations']);
  for (const f of readdirSync(dir).filter((n) => n.endsWith('.ts'))) {
    for (const m of readFileSync(join(dir, f), 'utf8').matchAll(/CREATE TABLE (?:IF NOT EXISTS )?"?([a-z_][a-z_0-9]*)/g)) out.add(m[1]);
  }
  return out;
}

const doc = readFileSync(join(ROOT, 'docs', 'architecture.md'), 'utf8');
const map = parseOwnershipMap(doc);
const shared = parseSharedWrites(doc);

describe('table ownership (docs/architecture.md "Tables and their owners")', () => {
  it('lists every table of the migrated schema exactly once, each owned by an existing module', () => {
    const tables = schemaTables();
    expect([...tables].filter((t) => !map.has(t)).sort()).toEqual([]);
    expect([...map.keys()].filter((t) => !tables.has(t)).sort()).toEqual([]);
    const dirs = new Set([...readdirSync(join(SRC, 'modules')).map((d) => `modules/${d}`), ...readdirSync(join(SRC, 'core')).map((d) => `core/${d}`)]);
    expect([...new Set(map.values())].filter((o) => !dirs.has(o)).sort()).toEqual([]);
  });

  it('no module writes a table it does not own', () => {
    const writes = scanWrites(SRC);
    // the scan finds the writes it is meant to find (a scan that finds nothing would pass vacuously)
    expect(writes.some((w) => w.table === 'users' && w.owner === 'modules/students')).toBe(true);
    expect(writes.some((w) => w.table === 'courses' && w.owner === 'modules/courses')).toBe(true);
    const unknown = writes.filter((w) => !map.has(w.table)).map((w) => `${w.file}:${w.line} ${w.how} ${w.table} (not a table of the map)`);
    const foreign = writes
      .filter((w) => map.has(w.table) && map.get(w.table) !== w.owner && !shared.has(`${w.table} ${w.owner}`))
      .map((w) => `${w.file}:${w.line} ${w.how} ${w.table} (owned by ${map.get(w.table)})`);
    expect([...unknown, ...foreign]).toEqual([]);
  });
});

describe('tables written by database functions (triggers)', () => {
  it('lists each (function, table) write of the functions of the schema, each answered for by the owner or an allowed writer of the table', () => {
    const scanned = scanFunctionWrites(join(ROOT, 'migrations'));
    // the scan finds what it is meant to find: the sync events the data-out triggers write
    expect(scanned).toEqual(expect.arrayContaining([expect.objectContaining({ fn: 'data_out_record', table: 'outbox_events' })]));
    const declared = parseFunctionWrites(doc);
    const key = (w: { fn: string; table: string }) => `${w.fn} -> ${w.table}`;
    expect(scanned.map(key).sort()).toEqual([...new Set(declared.map(key))].sort());
    const misplaced = declared.filter((d) => map.get(d.table) !== d.owner && !shared.has(`${d.table} ${d.owner}`)).map((d) => `${key(d)} by ${d.owner} (owned by ${map.get(d.table)})`);
    expect(misplaced).toEqual([]);
  });
});

describe('the write scan', () => {
  const entities = new Map([
    ['Student', 'users'],
    ['Course', 'courses'],
  ]);
  const tables = (text: string) => writesIn(text, entities).map((w) => `${w.how} ${w.table}`);

  it('finds SQL writes, one per statement, with their line', () => {
    const text = [
      'await m.query(`INSERT INTO users (organization_id, email) VALUES ($1, $2)`);',
      "await m.query('UPDATE lessons SET title = $1 WHERE id = $2');",
      'await m.query(`DELETE FROM\n  "course_labels" WHERE course_id = $1`);',
      'await m.query(`INSERT INTO offers (a) VALUES (1) ON CONFLICT (a) DO UPDATE SET a = 2`); // FOR UPDATE SKIP LOCKED',
    ].join('\n');
    expect(tables(text)).toEqual(['INSERT INTO users', 'UPDATE lessons', 'DELETE FROM course_labels', 'INSERT INTO offers']);
    expect(writesIn(text, entities).map((w) => w.line)).toEqual([1, 2, 3, 5]);
  });

  it('finds TypeORM writes on entities: repositories, injected repositories, query builders, the manager', () => {
    const text = `
      constructor(@InjectRepository(Student) private readonly students: Repository<Student>) {}
      a() { return this.students.save(x); }
      b() { return m.getRepository(Course).update({ id }, { title }); }
      c() { const repo = m.getRepository(Course); return repo.delete({ id }); }
      d() { return this.ds.createQueryBuilder().insert().into(Student).values(v).execute(); }
      e() { return m.getRepository(Course).createQueryBuilder().update().set({}).execute(); }
      f() { return m.insert(Student, { email }); }
      g() { return m.getRepository(Course).findOne({ where: { id } }); }`;
    expect(tables(text).sort()).toEqual(
      ['insert into users', 'manager.insert users', 'query builder update courses', 'repository.delete courses', 'repository.save users', 'repository.update courses'].sort(),
    );
  });

  it('ignores reads and comments', () => {
    expect(tables('// UPDATE users when ...\n * DELETE FROM courses\nawait m.query(`SELECT id FROM users FOR UPDATE SKIP LOCKED`);')).toEqual([]);
  });

  it('reads the allowed non-owner writes apart from the map', () => {
    const md =
      '## Tables and their owners\n\n| table | owner |\n|---|---|\n| `users` | `modules/students` |\n\n| table | written by | why |\n|---|---|---|\n| `users` | `modules/webhooks` | a reason |\n';
    expect([...parseOwnershipMap(md)]).toEqual([['users', 'modules/students']]);
    expect([...parseSharedWrites(md)]).toEqual(['users modules/webhooks']);
  });

  it('parses the map and refuses a table with two owners', () => {
    const md = '## Tables and their owners\n\n| table | owner |\n|---|---|\n| `users` | `modules/students` |\n| `courses` | `modules/courses` |\n\n## Next\n| `x` | `modules/y` |\n';
    expect([...parseOwnershipMap(md)]).toEqual([
      ['users', 'modules/students'],
      ['courses', 'modules/courses'],
    ]);
    expect(() => parseOwnershipMap(md.replace('`courses` | `modules/courses`', '`users` | `modules/domain-users`'))).toThrow(/two owners/);
  });
});
