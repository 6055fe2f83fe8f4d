import { DynamicModule, Module } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import { hostname } from 'node:os';
import { AuthModule } from './auth/auth.module';
import { AppConfig } from './config/config';
import { ConfigModule } from './config/config.module';
import { DatabaseModule } from './database/database.module';
import { genRequestId } from './http/request-id';
import { RedisModule } from './redis/redis.module';
import { QueueModule } from './queue/queue.module';

/** Levels at which request lines (written at info) are emitted. */
const REQUEST_LOGS_AT = new Set(['info', 'debug', 'trace']);

export const REDACT = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-api-key"]',
  'res.headers["set-cookie"]',
  '*.client_secret',
  '*.password',
  '*.refresh_token',
  '*.access_token',
];

/** What every process leans on: config, logging, database, Redis, queues and authentication. */
@Module({})
export class CoreModule {
  static forRoot(config: AppConfig, opts: { http: boolean }): DynamicModule {
    return {
      module: CoreModule,
      global: true,
      imports: [
        ConfigModule.forRoot(config),
        LoggerModule.forRoot({
          pinoHttp: {
            level: config.LOG_LEVEL,
            // on every line, request or not (a per-request child logger for it cost ~5% of a small GET)
            base: { pid: process.pid, hostname: hostname(), service: opts.http ? 'api' : 'worker' },
            genReqId: genRequestId as any,
            redact: { paths: REDACT, censor: '[redacted]' },
            // request lines are written at info: above that level, skip the per-response bookkeeping
            // (middie strips the mount path from req.url, so match on the original URL)
            autoLogging: REQUEST_LOGS_AT.has(config.LOG_LEVEL)
              ? { ignore: (req) => ((req as { originalUrl?: string }).originalUrl ?? req.url ?? '').startsWith('/health') }
              : false,
            serializers: {
              req: (req: any) => ({ id: req.id, method: req.method, url: req.url?.split('?')[0], remoteAddress: req.remoteAddress }),
            },
          },
        }),
        DatabaseModule,
        RedisModule,
        QueueModule,
        AuthModule,
      ],
      exports: [ConfigModule, RedisModule, QueueModule, AuthModule],
    };
  }
}
