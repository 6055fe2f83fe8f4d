import { Global, Inject, Injectable, Logger, Module, OnApplicationShutdown } from '@nestjs/common';
import Redis from 'ioredis';
import { AppConfig } from '../config/config';
import { backoffMs, reasonOf, shownUrl } from '../runtime/startup';

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

/**
 * A Redis connection for rate limits and health checks; keys are prefixed with REDIS_PREFIX.
 *
 * This connection speaks for the process about Redis: while Redis cannot be reached it writes one
 * warning per reconnection attempt naming REDIS_URL and the reason, with back-off (0.5 s, 1 s, 2 s
 * ... at most 10 s), and one line when Redis is back. The queues' own connections stay quiet about
 * the same outage (core/queue/queue-errors.ts), so an outage never floods the log.
 */
export function createRedis(config: AppConfig, opts: { forQueue?: boolean } = {}): Redis {
  const logger = new Logger('Redis');
  let lastError: unknown = null;
  let down = false;
  const client = new Redis(config.REDIS_URL, {
    lazyConnect: false,
    // BullMQ workers need blocking commands to wait forever; plain clients fail fast instead.
    maxRetriesPerRequest: opts.forQueue ? null : 2,
    enableOfflineQueue: true,
    connectTimeout: 5000,
    retryStrategy: (times) => {
      const ms = backoffMs(times, 10_000, 500);
      down = true;
      logger.warn(`Redis not reachable at ${shownUrl(config.REDIS_URL)} (REDIS_URL): ${lastError ? reasonOf(lastError) : 'connection closed'}; retrying in ${ms / 1000} s (attempt ${times})`);
      return ms;
    },
  });
  // without a listener ioredis prints "[ioredis] Unhandled error event" and a stack per attempt
  client.on('error', (err) => (lastError = err));
  client.on('ready', () => {
    if (down) logger.log(`Redis reachable again at ${shownUrl(config.REDIS_URL)} (REDIS_URL)`);
    down = false;
    lastError = null;
  });
  return client;
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
