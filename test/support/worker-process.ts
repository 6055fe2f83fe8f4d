import { ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import type { AppConfig } from '../../src/core/config/config';

const ROOT = path.resolve(__dirname, '../..');

/** A real worker process (`src/worker.ts`, what `npm run worker` runs) on a test app's database and Redis prefix. */
export interface WorkerProcess {
  child: ChildProcess;
  /** `promise`, or its error with what the worker wrote to stderr appended */
  orReport<T>(promise: Promise<T>): Promise<T>;
  /** SIGKILL, resolved once the process is gone */
  kill(): Promise<void>;
}

/**
 * Spawn the worker entry point against `config`'s database, Redis and prefix (private URLs allowed,
 * silent logs). `nodeArgs` go to node (e.g. `--max-old-space-size=64`). `env` adds settings; a key set to undefined is removed, so the setting takes its default.
 */
export function spawnWorker(config: AppConfig, env: Record<string, string | undefined> = {}, nodeArgs: string[] = []): WorkerProcess {
  const full: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'test',
    DATABASE_URL: config.DATABASE_URL,
    APP_DATABASE_URL: config.APP_DATABASE_URL,
    REDIS_URL: config.REDIS_URL,
    REDIS_PREFIX: config.REDIS_PREFIX,
    ALLOW_PRIVATE_URLS: 'true',
    LOG_LEVEL: 'silent',
    // its metrics port: any free one (tests run workers side by side)
    METRICS_PORT: '0',
  };
  for (const [k, v] of Object.entries(env)) {
    if (v === undefined) delete full[k];
    else full[k] = v;
  }
  const child = spawn(process.execPath, [...nodeArgs, '-r', '@swc-node/register', 'src/worker.ts'], { cwd: ROOT, env: full, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (c) => (stderr += c));
  return {
    child,
    orReport: (promise) =>
      promise.catch((e: Error) => {
        throw new Error(`${e.message}; worker stderr: ${stderr}`);
      }),
    kill: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((res) => child.once('exit', res));
      child.kill('SIGKILL');
      await exited;
    },
  };
}
