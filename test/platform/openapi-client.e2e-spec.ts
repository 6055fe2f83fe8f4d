import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';
import { startTestApp, TestApp } from '../support/app';

/**
 * What a client generated from GET /openapi.json gets (CONVENTIONS §16, issue 26 "Done when"):
 * openapi-typescript (its CLI, in a child process: the package is ESM-only) turns the served
 * document into types, and the TypeScript compiler checks that every answer with a body has a
 * typed body (not `never`, not `unknown`) and that a small client compiles against it. A second,
 * independent validator (@apidevtools/swagger-parser, OpenAPI 3.1 schema and $ref resolution)
 * accepts the document (the first is openapi-contract.e2e-spec.ts's ajv over the official schema).
 */
const ROOT = join(__dirname, '../..');
const METHODS = ['get', 'put', 'post', 'patch', 'delete'];

/**
 * The answers whose schema is still generic (`x-schema-generic`: an object without members, or a
 * page of them), for which a generated client gets `Record<string, never>`: none. A new operation
 * whose answer nothing declares fails here: declare it on its handler (@ApiResponse with its
 * schema, or @NoBody).
 */
const GENERIC_STILL: string[] = [];

describe('a client generated from GET /openapi.json', () => {
  let t: TestApp;
  let doc: any;
  let dir: string;
  let types: string;

  beforeAll(async () => {
    t = await startTestApp();
    doc = (await t.get('/openapi.json')).body;
    dir = mkdtempSync(join(tmpdir(), 'openapi-client-'));
    writeFileSync(join(dir, 'openapi.json'), JSON.stringify(doc));
    execFileSync(process.execPath, [join(ROOT, 'node_modules/openapi-typescript/bin/cli.js'), join(dir, 'openapi.json'), '-o', join(dir, 'api.d.ts')], { stdio: 'pipe', timeout: 120_000 });
    types = readFileSync(join(dir, 'api.d.ts'), 'utf8');
  }, 180_000);

  afterAll(async () => {
    if (dir && !process.env.KEEP_CLIENT) rmSync(dir, { recursive: true, force: true });
    else if (dir) process.stderr.write(`generated client kept in ${dir}\n`);
    await t?.close();
  });

  it('is valid under a second validator (@apidevtools/swagger-parser)', () => {
    // in a child process: the parser's dependencies are ESM (Node 20 requires them there, jest's CommonJS runtime does not)
    const script = `require('@apidevtools/swagger-parser').validate(process.argv[1]).then(() => console.log('valid'), (e) => { console.log(String(e.message).slice(0, 4000)); process.exitCode = 1; })`;
    let out: string;
    try {
      out = execFileSync(process.execPath, ['-e', script, join(dir, 'openapi.json')], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
    } catch (e) {
      out = String((e as { stdout?: string }).stdout ?? e);
    }
    expect(out.trim()).toBe('valid');
  }, 120_000);

  it('has a typed body for every answer, and a small client compiles', () => {
    // one type alias per answer with a body; a check that makes `never` and `unknown` compile errors
    // `Record<string, never>` (an object schema without members) is untyped too, unless declared empty on purpose
    const lines = [
      `import type { paths } from './api';`,
      `type Typed<T> = [T] extends [never] ? 'never' : unknown extends T ? 'unknown' : string extends keyof T ? ([T[keyof T]] extends [never] ? 'empty' : 'typed') : 'typed';`,
      `type TypedOrEmpty<T> = Typed<T> extends 'empty' ? 'typed' : Typed<T>;`,
    ];
    const where: string[] = [];
    const generic: string[] = [];
    for (const [path, item] of Object.entries<any>(doc.paths)) {
      for (const method of METHODS) {
        const op = item[method];
        if (!op) continue;
        for (const [status, res] of Object.entries<any>(op.responses ?? {})) {
          if (res['x-schema-generic']) generic.push(`${method.toUpperCase()} ${path} ${status}`);
          for (const [type, media] of Object.entries<any>(res.content ?? {})) {
            const i = where.length;
            where.push(`${method.toUpperCase()} ${path} ${status} ${type}`);
            if (res['x-schema-generic']) continue;
            const declaredEmpty = media.schema?.additionalProperties === false && Object.keys(media.schema?.properties ?? { x: 1 }).length === 0;
            lines.push(
              `export const a${i}: ${declaredEmpty ? 'TypedOrEmpty' : 'Typed'}<paths[${JSON.stringify(path)}][${JSON.stringify(method)}]['responses'][${JSON.stringify(status)}]['content'][${JSON.stringify(type)}]> = 'typed';`,
            );
          }
        }
      }
    }
    expect(where.length).toBeGreaterThan(1000);
    // a small client: the answers' members are typed
    lines.push(`
type Body<P extends keyof paths, M extends keyof paths[P], S extends number, C extends string> =
  paths[P][M] extends { responses: { [s in S]: { content: { [c in C]: infer B } } } } ? B : never;
declare const students: Body<'/v2/students', 'get', 200, 'application/vnd.api+json'>;
export const email: string | null | undefined = students.data[0].attributes.email;
declare const courses: Body<'/v1/courses', 'get', 200, 'application/json'>;
export const count: number = courses.count;
export const title: string = courses.results[0].title;
// @ts-expect-error a member the declaration does not have
export const nothing = courses.results[0].no_such_member;
`);
    writeFileSync(join(dir, 'usage.ts'), lines.join('\n'));
    const program = ts.createProgram([join(dir, 'usage.ts')], { strict: true, noEmit: true, skipLibCheck: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.CommonJS, types: [] });
    const problems = ts.getPreEmitDiagnostics(program).map((d) => {
      const text = ts.flattenDiagnosticMessageText(d.messageText, ' ');
      const line = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line : -1;
      const m = d.file?.text.split('\n')[line]?.match(/^export const a(\d+):/);
      return m ? `${where[Number(m[1])]}: ${text.slice(0, 200)}` : `${d.file?.fileName.split('/').pop()}:${line + 1}: ${text.slice(0, 300)}`;
    });
    expect(problems).toEqual([]);
    expect(types.length).toBeGreaterThan(100_000);
    // what still has a generic schema (complete-document.ts: nothing declares it yet); declare it and take it off
    expect(generic.sort()).toEqual([...GENERIC_STILL].sort());
  }, 300_000);
});
