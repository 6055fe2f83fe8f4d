import { Inject, Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import Redis from 'ioredis';
import { AppConfig } from '../config/config';
import { REDIS } from '../redis/redis.module';

export interface InvalidationMessage {
  client?: string;
  family?: string;
  /** an access token revoked (its `jti`): its cached verification is dropped */
  jti?: string;
  all?: true;
}
type Listener = (message: InvalidationMessage) => void;

/**
 * Cross-process invalidation of the authentication caches (docs/decisions/performance.md): a
 * change to an OAuth client (update, secret rotation, deactivation), a revoked token family or a revoked access token
 * (its `jti`, whose cached verification AccessTokenStrategy drops) is published on the Redis
 * channel `<REDIS_PREFIX>:auth:invalidate` after its transaction commits; every API process
 * subscribed to it drops what it cached about that client at once. Without Redis (outage, a
 * message lost between a disconnection and the resubscription) the caches still expire after
 * AUTH_CACHE_SECONDS, the bound the design had before; on every (re)subscription each process
 * clears its caches, so a message missed while disconnected cannot leave a stale entry behind.
 *
 * The subscriber connection is opened lazily, by the first cache write (so the worker and the CLI,
 * which never cache client state, open none), and closed with the application.
 */
@Injectable()
export class AuthInvalidationBus implements OnModuleDestroy {
  private readonly logger = new Logger('AuthInvalidation');
  private subscriber?: Redis;
  private readonly listeners: Listener[] = [];
  private closed = false;

  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    private readonly config: AppConfig,
  ) {}

  get channel(): string {
    return `${this.config.REDIS_PREFIX}:auth:invalidate`;
  }

  onMessage(listener: Listener) {
    this.listeners.push(listener);
  }

  /** Open the subscription (once). */
  ensureSubscribed() {
    if (this.subscriber || this.closed) return;
    const sub = this.redis.duplicate({ lazyConnect: false, maxRetriesPerRequest: null, enableOfflineQueue: true });
    this.subscriber = sub;
    sub.on('error', () => undefined); // the main connection logs outages (health, rate limits)
    // ioredis resubscribes after a reconnection; anything published meanwhile was missed: start clean
    sub.on('ready', () => this.emit({ all: true }));
    sub.on('message', (channel: string, text: string) => {
      if (channel !== this.channel) return;
      try {
        const m = JSON.parse(text);
        if (m && (typeof m.client === 'string' || typeof m.family === 'string' || typeof m.jti === 'string' || m.all === true)) this.emit(m);
      } catch {
        /* not ours */
      }
    });
    sub.subscribe(this.channel).catch(() => undefined);
  }

  /** Tell every process (this one included, through its own subscription, and directly). */
  publish(message: { client: string } | { family: string } | { jti: string }) {
    this.emit(message);
    if (this.redis.status !== 'ready') return;
    this.redis.publish(this.channel, JSON.stringify(message)).catch((err) => {
      this.logger.warn({ err: (err as Error).message }, 'could not publish an authentication cache invalidation; other processes see the change within AUTH_CACHE_SECONDS');
    });
  }

  private emit(m: InvalidationMessage) {
    for (const l of this.listeners) l(m);
  }

  async onModuleDestroy() {
    this.closed = true;
    const sub = this.subscriber;
    this.subscriber = undefined;
    if (!sub) return;
    // quit() would wait for a reconnection while Redis is away
    if (sub.status !== 'ready') sub.disconnect();
    else await sub.quit().catch(() => sub.disconnect());
  }
}
