import 'dotenv/config';
import 'reflect-metadata';
import { createApp } from './app.factory';
import { AddressInfo } from 'node:net';
import { Logger } from 'nestjs-pino';
import { AppConfig, loadConfig } from './core/config/config';
import { createRootLogger } from './core/logging/logger';
import { baseUrlOf, startFailure, waitForPostgres, waitForRedis } from './core/runtime/startup';
import { migrate } from './core/database/database';
import { constants as perfConstants, monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';

/**
 * Benchmark hook, off unless EVENT_LOOP_STATS=ipc and the process was started with an IPC channel
 * (bench/lib.js starts the API so): the event-loop delay histogram (perf_hooks, 10 ms resolution
 * is too coarse for a p99, so 1 ms) answered on the channel. `{ eventLoop: 'reset' }` starts a
 * measured window, `{ eventLoop: 'read' }` answers that window's and the whole lifetime's figures
 * in ms, with the window's garbage-collection pauses (count, total, longest, major collections).
 * Nothing is reachable over HTTP; only the parent process can ask.
 */
function eventLoopProbe() {
  if (process.env.EVENT_LOOP_STATS !== 'ipc' || typeof process.send !== 'function') return;
  const window = monitorEventLoopDelay({ resolution: 1 });
  const lifetime = monitorEventLoopDelay({ resolution: 1 });
  window.enable();
  lifetime.enable();
  const ms = (h: ReturnType<typeof monitorEventLoopDelay>) => ({
    p50: h.percentile(50) / 1e6,
    p99: h.percentile(99) / 1e6,
    max: h.max / 1e6,
    mean: h.mean / 1e6,
    samples: h.count,
  });
  // garbage-collection pauses of the window: a long pause is a long event-loop delay
  const gc = { count: 0, totalMs: 0, maxMs: 0, major: 0 };
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      gc.count++;
      gc.totalMs += e.duration;
      gc.maxMs = Math.max(gc.maxMs, e.duration);
      if ((e as any).detail?.kind === perfConstants.NODE_PERFORMANCE_GC_MAJOR) gc.major++;
    }
  }).observe({ entryTypes: ['gc'] });
  process.on('message', (m: any) => {
    if (m?.eventLoop === 'reset') {
      window.reset();
      Object.assign(gc, { count: 0, totalMs: 0, maxMs: 0, major: 0 });
      process.send!({ eventLoop: 'reset', id: m.id });
    } else if (m?.eventLoop === 'read') {
      process.send!({ eventLoop: 'read', id: m.id, window: { ...ms(window), gc: { ...gc } }, lifetime: ms(lifetime) });
    }
  });
  // the channel must not keep the process alive once the server has closed
  (process as any).channel?.unref?.();
}

async function main() {
  let config: AppConfig | undefined;
  try {
    config = loadConfig();
    const log = createRootLogger(config, 'api');
    // a missing PostgreSQL or Redis: one line per attempt naming the setting, then a retry with back-off
    await waitForPostgres(config, log);
    await migrate(config);
    await waitForRedis(config, log);
    const app = await createApp(config);
    await app.listen({ port: config.PORT, host: config.HOST });
    const port = (app.getHttpServer().address() as AddressInfo | null)?.port ?? config.PORT;
    const base = baseUrlOf(config, port);
    // through the application's logger: after every line it wrote while starting
    app.get(Logger).log(`API on ${base}, docs at ${base}/docs`);
    eventLoopProbe();
  } catch (err) {
    const { line, code } = startFailure(err, 'API', { port: config?.PORT, host: config?.HOST, setting: 'PORT' });
    process.stderr.write(`${line}\n`);
    process.exit(code);
  }
}

void main();
