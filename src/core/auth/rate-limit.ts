import { ExecutionContext, Inject, Injectable, Logger } from '@nestjs/common';
import { ThrottlerGuard, ThrottlerLimitDetail, ThrottlerStorage } from '@nestjs/throttler';
import type { ThrottlerStorageRecord } from '@nestjs/throttler/dist/throttler-storage-record.interface';
import Redis from 'ioredis';
import { AppConfig } from '../config/config';
import { ApiError } from '../http/api-error';
import { REDIS } from '../redis/redis.module';

const SCRIPT = `
local hits = redis.call('INCR', KEYS[1])
if hits == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
return {hits, ttl}`;

/**
 * Fixed-window counters in Redis, so limits hold across API instances. Fails open: when Redis is
 * unreachable the request is let through and the failure logged.
 */
@Injectable()
export class RedisThrottlerStorage implements ThrottlerStorage {
  private readonly logger = new Logger('RateLimit');
  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    private readonly config: AppConfig,
  ) {}

  async increment(key: string, ttl: number, limit: number): Promise<ThrottlerStorageRecord> {
    try {
      const [hits, pttl] = (await this.redis.eval(SCRIPT, 1, `${this.config.REDIS_PREFIX}:rl:${key}`, ttl)) as [number, number];
      const timeToExpire = Math.max(1, Math.ceil(pttl / 1000));
      const isBlocked = hits > limit;
      return { totalHits: hits, timeToExpire, isBlocked, timeToBlockExpire: isBlocked ? timeToExpire : 0 };
    } catch (err) {
      this.logger.warn({ err: (err as Error).message }, 'rate limit store unavailable; allowing request');
      return { totalHits: 0, timeToExpire: 0, isBlocked: false, timeToBlockExpire: 0 };
    }
  }
}

type NumericSetting = { [K in keyof AppConfig]-?: AppConfig[K] extends number ? K : never }[keyof AppConfig];

/** The configuration of the app serving a request, set by RateLimitGuard before the limits are resolved. */
const configOfRequest = new WeakMap<object, AppConfig>();

/**
 * A @Throttle limit or ttl taken from the configuration at request time, e.g.
 * `@Throttle({ default: { limit: fromConfig('REGISTER_RATE_LIMIT'), ttl: fromConfig('REGISTER_RATE_WINDOW_SECONDS', 1000) } })`
 * (ttl is in milliseconds, hence the factor). Only meaningful under RateLimitGuard.
 */
export function fromConfig(key: NumericSetting, factor = 1): (ctx: ExecutionContext) => number {
  return (ctx) => {
    const config = configOfRequest.get(ctx.switchToHttp().getRequest());
    if (!config) throw new Error(`fromConfig('${key}') is only resolved under RateLimitGuard`);
    return (config[key] as number) * factor;
  };
}

/**
 * Route-level rate limiting (apply with @UseGuards(RateLimitGuard) and @Throttle). Anonymous routes
 * are tracked per IP, authenticated ones per client (or per organization for an API key). Answers
 * 429 in the interface's envelope with Retry-After and RateLimit-* headers.
 */
@Injectable()
export class RateLimitGuard extends ThrottlerGuard {
  protected headerPrefix = 'RateLimit';
  @Inject(AppConfig) private readonly config!: AppConfig;

  async canActivate(ctx: ExecutionContext): Promise<boolean> {
    configOfRequest.set(ctx.switchToHttp().getRequest(), this.config);
    return super.canActivate(ctx);
  }

  protected async getTracker(req: Record<string, any>): Promise<string> {
    const p = req.principal;
    if (p) return p.clientId ? `client:${p.clientId}` : `org:${p.organizationId}`;
    return `ip:${req.ip}`;
  }

  protected async throwThrottlingException(_ctx: ExecutionContext, d: ThrottlerLimitDetail): Promise<void> {
    throw new ApiError(429, 'Too many requests; retry later.', {
      headers: {
        'Retry-After': String(d.timeToBlockExpire || d.timeToExpire),
        'RateLimit-Limit': String(d.limit),
        'RateLimit-Remaining': '0',
        'RateLimit-Reset': String(d.timeToExpire),
      },
      oauthError: 'slow_down',
    });
  }
}
