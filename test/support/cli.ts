import { transformFileSync } from '@swc/core';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

/**
 * The administrative command line (src/cli.ts) as the tests run it.
 *
 * `npm run cli` compiles every source it loads on the fly (@swc-node/register: a second or two of
 * CPU per call, and these suites call it dozens of times). So a test file compiles the sources once,
 * with the same swc settings the tests use (.swcrc), into a folder under node_modules/.cache that
 * mirrors the tree (src/, migrations/: relative imports and node_modules resolve as from the
 * tree), and runs `node <that>/src/cli.js ...args`: the same program, without the per-call compile.
 * `npmCli` runs the real `npm run --silent cli -- ...args` (test/platform/cli.e2e-spec.ts keeps a
 * test on it, so the documented command itself is covered).
 */
const ROOT = join(__dirname, '../..');

export interface Run {
  code: number | null;
  stdout: string;
  /** stderr without npm's own warnings about the machine's npm configuration */
  stderr: string;
}

let compiled: string | undefined;

function compileTree(out: string, dir: string): void {
  for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
    const rel = join(dir, entry.name);
    if (entry.isDirectory()) compileTree(out, rel);
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts')) {
      const target = join(out, rel.replace(/\.ts$/, '.js'));
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, transformFileSync(join(ROOT, rel), { swcrc: true, cwd: ROOT, sourceMaps: false }).code);
    }
  }
}

/** The compiled entry point, built once per test file (removed when the process exits). */
function compiledEntry(): string {
  if (!compiled) {
    const cache = join(ROOT, 'node_modules/.cache');
    mkdirSync(cache, { recursive: true });
    const out = mkdtempSync(join(cache, 'cp-cli-'));
    process.once('exit', () => rmSync(out, { recursive: true, force: true }));
    compileTree(out, 'src');
    compileTree(out, 'migrations');
    compiled = join(out, 'src/cli.js');
    if (relative(ROOT, compiled).startsWith('..')) throw new Error('compiled CLI outside the tree');
  }
  return compiled;
}

function run(command: string, args: string[], databaseUrl: string, stdin?: string): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: databaseUrl, NODE_ENV: 'test' },
      stdio: [stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d) => (stdout += d));
    child.stderr!.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) =>
      resolve({
        code,
        stdout,
        stderr: stderr
          .split('\n')
          .filter((l) => l && !l.startsWith('npm warn'))
          .join('\n'),
      }),
    );
    if (stdin !== undefined) child.stdin!.end(stdin);
  });
}

/** The command `cli ...args` against `databaseUrl`, with `stdin` piped in when given (compiled once, above). */
export function cli(databaseUrl: string, args: string[], stdin?: string): Promise<Run> {
  return run(process.execPath, [compiledEntry(), ...args], databaseUrl, stdin);
}

/** The documented command itself: `npm run --silent cli -- ...args`. */
export function npmCli(databaseUrl: string, args: string[], stdin?: string): Promise<Run> {
  return run('npm', ['run', '--silent', 'cli', '--', ...args], databaseUrl, stdin);
}

/** The one line a successful command prints, parsed (exit 0, nothing on stderr). */
export function oneJsonLine(result: Run): any {
  expect([result.code, result.stderr]).toEqual([0, '']);
  expect(result.stdout.endsWith('\n')).toBe(true);
  const lines = result.stdout.slice(0, -1).split('\n');
  expect(lines).toHaveLength(1);
  return JSON.parse(lines[0]);
}

/** A failed command: non-zero exit, nothing on stdout, a JSON error on stderr; its message. */
export function jsonError(result: Run): string {
  expect(result.code).not.toBe(0);
  expect(result.stdout).toBe('');
  const body = JSON.parse(result.stderr.trim());
  expect(typeof body.error).toBe('string');
  expect(body.error.length).toBeGreaterThan(0);
  return body.error;
}
