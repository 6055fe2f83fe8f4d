import { ChildProcess, spawn } from 'node:child_process';
import net from 'node:net';
import Redis from 'ioredis';

/** A free TCP port on 127.0.0.1 (nothing listens on it once this returns). */
export async function freePort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()));
  const { port } = srv.address() as net.AddressInfo;
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

/**
 * A private redis-server on its own port, with no persistence: stopping and starting it again is
 * a Redis that restarts empty. For fault tests only (the shared Redis must never be flushed).
 */
export class PrivateRedis {
  private proc: ChildProcess | null = null;
  constructor(readonly port: number) {}

  static async start(): Promise<PrivateRedis> {
    const r = new PrivateRedis(await freePort());
    await r.start();
    return r;
  }

  get url() {
    return `redis://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    if (this.proc) return;
    this.proc = spawn('redis-server', ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    const end = Date.now() + 10_000;
    for (;;) {
      const c = new Redis(this.url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
      try {
        await c.connect();
        if ((await c.ping()) === 'PONG') return;
      } catch {
        /* not up yet */
      } finally {
        c.disconnect();
      }
      if (Date.now() > end) throw new Error(`redis-server on ${this.port} did not start`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** Stop the server (SIGKILL: no shutdown save either way, its data is gone). */
  async stop(): Promise<void> {
    const p = this.proc;
    if (!p) return;
    this.proc = null;
    if (p.exitCode !== null) return;
    await new Promise<void>((r) => {
      p.once('exit', () => r());
      p.kill('SIGKILL');
    });
  }
}
