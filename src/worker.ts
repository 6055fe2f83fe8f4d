import 'dotenv/config';
import 'reflect-metadata';
import './core/runtime/async-resource-bind';
import { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Logger } from 'nestjs-pino';
import { AppConfig, loadConfig } from './core/config/config';
import { migrate } from './core/database/database';
import { WorkerModule } from './worker.module';

/** How long a stop may take (jobs in flight finish first) before the process exits anyway. */
const SHUTDOWN_GRACE_MS = 25_000;

/** Build the worker application context (used by this entry point and by the tests). */
export async function createWorker(config: AppConfig): Promise<INestApplicationContext> {
  const app = await NestFactory.createApplicationContext(WorkerModule.forRoot(config), { bufferLogs: true, abortOnError: false });
  app.useLogger(app.get(Logger));
  return app;
}

async function main() {
  const config = loadConfig();
  await migrate(config);
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
  logger.log({ msg: 'worker started' });
}

if (require.main === module) {
  main().catch((err) => {
    process.stderr.write(`worker failed to start: ${err?.stack ?? err}\n`);
    process.exit(1);
  });
}
