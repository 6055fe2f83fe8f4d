import 'dotenv/config';
import 'reflect-metadata';
import './core/runtime/async-resource-bind';
import { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Logger } from 'nestjs-pino';
import { AppConfig, loadConfig } from './core/config/config';
import { migrate } from './core/database/database';
import { WorkerModule } from './worker.module';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { createRootLogger } from './core/logging/logger';
import { Metrics } from './core/metrics/metrics';
import { QUEUES } from './core/queue/queues';
import { baseUrlOf, QuietNestLogger, startFailure, waitForPostgres, waitForRedis } from './core/runtime/startup';

/** How long a stop may take (jobs in flight finish first) before the process exits anyway. */
const SHUTDOWN_GRACE_MS = 25_000;

/** Build the worker application context (used by this entry point and by the tests). */
export async function createWorker(config: AppConfig): Promise<INestApplicationContext> {
  const app = await NestFactory.createApplicationContext(WorkerModule.forRoot(config), { bufferLogs: true, abortOnError: false });
  app.useLogger(new QuietNestLogger(app.get(Logger)));
  return app;
}

/**
 * The worker's metrics port: GET /metrics (the same text and the same protection as the API's,
 * core/metrics/metrics.ts); anything else 404. Resolves with the port once it listens.
 */
export async function serveWorkerMetrics(app: INestApplicationContext, config: AppConfig): Promise<Server> {
  const metrics = app.get(Metrics);
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method !== 'GET' || path !== '/metrics') {
      res.writeHead(404, { 'Content-Type': 'application/json' }).end(JSON.stringify({ detail: 'Not found. The worker answers GET /metrics only.' }));
      return;
    }
    const allowed = metrics.allowed(req);
    if (allowed !== 'ok') {
      const detail = allowed === 'unauthorized' ? 'GET /metrics needs Authorization: Bearer <METRICS_TOKEN>.' : 'GET /metrics answers loopback clients only while METRICS_TOKEN is not set.';
      res.writeHead(allowed === 'unauthorized' ? 401 : 403, { 'Content-Type': 'application/json' }).end(JSON.stringify({ detail }));
      return;
    }
    metrics.render().then(
      ({ body, contentType }) => res.writeHead(200, { 'Content-Type': contentType, 'Cache-Control': 'no-store' }).end(body),
      () => res.writeHead(500, { 'Content-Type': 'application/json' }).end(JSON.stringify({ detail: 'metrics could not be collected' })),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.METRICS_PORT, config.METRICS_HOST, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return server;
}

async function main() {
  let config: AppConfig | undefined;
  try {
    config = loadConfig();
    const log = createRootLogger(config, 'worker');
    // a missing PostgreSQL or Redis: one line per attempt naming the setting, then a retry with back-off
    await waitForPostgres(config, log);
    await migrate(config);
    await waitForRedis(config, log);
    const app = await createWorker(config);
    const logger = app.get(Logger);
    // On SIGTERM/SIGINT Nest runs the shutdown hooks: the BullMQ workers stop taking jobs and wait
    // for the ones in flight, then queues, Redis and the database pool close, then the signal is
    // re-raised so the process ends. A stop that hangs is cut short.
    app.enableShutdownHooks(['SIGTERM', 'SIGINT']);
    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      process.once(signal, () => {
        logger.log({ msg: 'worker stopping', signal });
        setTimeout(() => {
          process.stderr.write(`worker did not stop within ${SHUTDOWN_GRACE_MS} ms; exiting\n`);
          process.exit(1);
        }, SHUTDOWN_GRACE_MS).unref();
      });
    }
    await app.init();
    const server = await serveWorkerMetrics(app, config);
    process.once('SIGTERM', () => server.close());
    process.once('SIGINT', () => server.close());
    const port = (server.address() as AddressInfo).port;
    // through the application's logger: after every line it wrote while starting
    logger.log(`worker running (queues: ${Object.values(QUEUES).join(', ')}), metrics at ${baseUrlOf(config, port, config.METRICS_HOST)}/metrics`);
  } catch (err) {
    const { line, code } = startFailure(err, 'worker', { port: config?.METRICS_PORT, host: config?.METRICS_HOST, setting: 'METRICS_PORT' });
    process.stderr.write(`${line}\n`);
    process.exit(code);
  }
}

if (require.main === module) void main();
