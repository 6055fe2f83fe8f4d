import { DynamicModule, Module } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import { AuthModule } from './auth/auth.module';
import { AppConfig } from './config/config';
import { ConfigModule } from './config/config.module';
import { DatabaseModule } from './database/database.module';
import { genRequestId } from './http/request-id';
import { RedisModule } from './redis/redis.module';
import { QueueModule } from './queue/queue.module';

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
            genReqId: genRequestId as any,
            customProps: () => ({ service: opts.http ? 'api' : 'worker' }),
            redact: { paths: REDACT, censor: '[redacted]' },
            autoLogging: { ignore: (req) => (req.url ?? '').startsWith('/health') },
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
