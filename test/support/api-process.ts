import { ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
import type { AppConfig } from '../../src/core/config/config';

const ROOT = path.resolve(__dirname, '../..');

/** A real API process (`src/main.ts`, what `npm start` runs, through @swc-node/register) on a test app's database and Redis prefix. */
export interface ApiProcess {
  child: ChildProcess;
  baseUrl: string;
  /** what the process wrote to stderr so far */
  stderr(): string;
  /** resolves once `line` appears on stderr (rejects after `ms`, or when the process exits first) */
  waitForStderr(line: string, ms?: number): Promise<void>;
  /** SIGKILL, resolved once the process is gone */
  kill(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as import('node:net').AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

/**
 * Spawn the API entry point against `config`'s database, Redis and prefix, on a free port, and wait
 * until it answers /health. `env` adds settings (e.g. IDEMPOTENCY_FAULT).
 */
export async function spawnApi(config: AppConfig, env: Record<string, string> = {}): Promise<ApiProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, ['-r', '@swc-node/register', 'src/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      DATABASE_URL: config.DATABASE_URL,
      DATABASE_POOL_SIZE: '5',
      REDIS_URL: config.REDIS_URL,
      REDIS_PREFIX: config.REDIS_PREFIX,
      APP_SECRET: config.APP_SECRET,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'silent',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  const waiters: Array<() => void> = [];
  child.stderr!.on('data', (c) => {
    stderr += c;
    for (const w of waiters) w();
  });
  const exited = new Promise<void>((res) => child.once('exit', () => res()));
  const baseUrl = `http://127.0.0.1:${port}`;
  const api: ApiProcess = {
    child,
    baseUrl,
    stderr: () => stderr,
    waitForStderr: (line, ms = 20_000) =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no "${line}" on the API's stderr within ${ms} ms: ${stderr}`)), ms);
        const check = () => {
          if (stderr.includes(line)) {
            clearTimeout(timer);
            resolve();
          }
        };
        waiters.push(check);
        check();
        void exited.then(() => {
          clearTimeout(timer);
          if (!stderr.includes(line)) reject(new Error(`the API exited before "${line}": ${stderr}`));
        });
      }),
    kill: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGKILL');
      await exited;
    },
  };
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the API exited (${child.exitCode}) before answering: ${stderr}`);
    try {
      const r = await fetch(`${baseUrl}/health`);
      if (r.status < 500) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) {
      await api.kill();
      throw new Error(`the API did not answer /health within 60 s: ${stderr}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return api;
}
