import { DynamicModule, Module } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import type { Logger } from 'pino';
import { createRootLogger } from './logging/logger';
import { AuthModule } from './auth/auth.module';
import { AppConfig } from './config/config';
import { ConfigModule } from './config/config.module';
import { DatabaseModule } from './database/database.module';
import { EventsModule } from './events/events.module';
import { RedisModule } from './redis/redis.module';
import { QueueModule } from './queue/queue.module';
import { Metrics } from './metrics/metrics';

/** What every process leans on: config, logging, database, Redis, queues and authentication. */
@Module({})
export class CoreModule {
  static forRoot(config: AppConfig, opts: { http: boolean; logger?: Logger }): DynamicModule {
    const logger = opts.logger ?? createRootLogger(config, opts.http ? 'api' : 'worker');
    return {
      module: CoreModule,
      global: true,
      imports: [
        ConfigModule.forRoot(config),
        // Nest's logger writes through pino. No HTTP middleware: the API binds each request's logger
        // in a Fastify hook (app.factory.ts), which costs far less than middie + pino-http per request.
        LoggerModule.forRoot({ pinoHttp: { logger }, forRoutes: [] }),
        DatabaseModule,
        EventsModule,
        RedisModule,
        QueueModule,
        AuthModule,
      ],
      // the process's Prometheus metrics (GET /metrics of the API, the worker's METRICS_PORT)
      providers: [Metrics],
      exports: [ConfigModule, RedisModule, QueueModule, AuthModule, Metrics],
    };
  }
}
