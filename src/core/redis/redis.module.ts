import { Global, Inject, Injectable, Module, OnApplicationShutdown } from '@nestjs/common';
import Redis from 'ioredis';
import { AppConfig } from '../config/config';

export const REDIS = Symbol('REDIS');

/** ioredis connection options from REDIS_URL (BullMQ makes and closes its own connections from these). */
export function redisOptions(config: AppConfig) {
  const u = new URL(config.REDIS_URL);
  return {
    host: u.hostname,
    port: Number(u.port || 6379),
    username: u.username ? decodeURIComponent(u.username) : undefined,
    password: u.password ? decodeURIComponent(u.password) : undefined,
    db: u.pathname && u.pathname.length > 1 ? Number(u.pathname.slice(1)) : 0,
    tls: u.protocol === 'rediss:' ? {} : undefined,
  };
}

/** A Redis connection for rate limits and health checks; keys are prefixed with REDIS_PREFIX. */
export function createRedis(config: AppConfig, opts: { forQueue?: boolean } = {}): Redis {
  return new Redis(config.REDIS_URL, {
    lazyConnect: false,
    // BullMQ workers need blocking commands to wait forever; plain clients fail fast instead.
    maxRetriesPerRequest: opts.forQueue ? null : 2,
    enableOfflineQueue: true,
    connectTimeout: 5000,
  });
}

@Injectable()
class RedisCloser implements OnApplicationShutdown {
  constructor(@Inject(REDIS) private readonly redis: Redis) {}
  async onApplicationShutdown() {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}

@Global()
@Module({
  providers: [{ provide: REDIS, inject: [AppConfig], useFactory: (c: AppConfig) => createRedis(c) }, RedisCloser],
  exports: [REDIS],
})
export class RedisModule {}
