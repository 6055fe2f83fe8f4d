import { applyDecorators, ExecutionContext, Inject, Injectable, Logger, SetMetadata, UseGuards } from '@nestjs/common';
import { Throttle, ThrottlerGuard, ThrottlerStorage } from '@nestjs/throttler';
import type { ThrottlerRequest } from '@nestjs/throttler/dist/throttler.guard.interface';
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

/** How long a rate-limit counter may take in Redis before the in-process counter answers instead. */
const REDIS_TIMEOUT_MS = 1000;
/** The in-process map is swept of expired windows when it grows past this many keys. */
const LOCAL_SWEEP_AT = 10_000;

/**
 * Fixed-window counters in Redis, so limits hold across API instances. While Redis is unreachable
 * (not connected, an error, or no answer within a second) the same limits are counted in this
 * process instead: the limit still holds, per process, and no request waits for Redis. The outage
 * is logged once when it starts and once when Redis answers again (keys are never logged: they
 * name clients).
 */
@Injectable()
export class RedisThrottlerStorage implements ThrottlerStorage {
  private readonly logger = new Logger('RateLimit');
  private readonly local = new Map<string, { hits: number; expiresAt: number }>();
  private degraded = false;

  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    private readonly config: AppConfig,
  ) {}

  async increment(key: string, ttl: number, limit: number): Promise<ThrottlerStorageRecord> {
    let hits: number;
    let pttl: number;
    try {
      if (this.redis.status !== 'ready') throw new Error(`redis connection is ${this.redis.status}`);
      [hits, pttl] = await this.withTimeout(this.redis.eval(SCRIPT, 1, `${this.config.REDIS_PREFIX}:rl:${key}`, ttl) as Promise<[number, number]>);
      if (this.degraded) {
        this.degraded = false;
        this.logger.log('rate limit store reachable again; counting in Redis');
      }
    } catch (err) {
      if (!this.degraded) {
        this.degraded = true;
        this.logger.warn({ err: (err as Error).message }, 'rate limit store unavailable; counting in this process until it is back');
      }
      [hits, pttl] = this.localIncrement(key, ttl);
    }
    const timeToExpire = Math.max(1, Math.ceil(pttl / 1000));
    const isBlocked = hits > limit;
    return { totalHits: hits, timeToExpire, isBlocked, timeToBlockExpire: isBlocked ? timeToExpire : 0 };
  }

  private withTimeout<T>(p: Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('redis did not answer in time')), REDIS_TIMEOUT_MS);
    });
    return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
  }

  /** The same fixed window, in this process's memory. */
  private localIncrement(key: string, ttl: number): [number, number] {
    const now = Date.now();
    if (this.local.size >= LOCAL_SWEEP_AT) for (const [k, v] of this.local) if (v.expiresAt <= now) this.local.delete(k);
    let w = this.local.get(key);
    if (!w || w.expiresAt <= now) {
      w = { hits: 0, expiresAt: now + ttl };
      this.local.set(key, w);
    }
    w.hits++;
    return [w.hits, w.expiresAt - now];
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

const RATE_LIMIT = 'cp:rate-limit';

interface RateLimitSettings {
  /** the counters' name: operations with the same name share their budgets (e.g. one operation on /v1 and /v2) */
  operation: string;
  limit: NumericSetting;
  window: NumericSetting;
  organizationLimit: NumericSetting;
}

/**
 * A rate-limited operation: `limit` calls per `window` seconds per client (per organization for an
 * API key, per IP address when anonymous) AND `organizationLimit` calls per `window` per
 * organization, whichever client makes them; the numbers are settings.
 */
export function RateLimit(settings: RateLimitSettings) {
  return applyDecorators(UseGuards(RateLimitGuard), Throttle({ default: { limit: fromConfig(settings.limit), ttl: fromConfig(settings.window, 1000) } }), SetMetadata(RATE_LIMIT, settings));
}

interface Counter {
  policy: string;
  limit: number;
  record: ThrottlerStorageRecord;
}

/**
 * Route-level rate limiting (apply with @RateLimit, or @UseGuards(RateLimitGuard) and @Throttle).
 * Every call counts against the caller (the client; the organization's API key; IP when anonymous)
 * and, with @RateLimit, also against the caller's organization. Every answer carries the IETF
 * `RateLimit-Policy` and `RateLimit` fields (draft-ietf-httpapi-ratelimit-headers-10/-11 syntax: a
 * structured-field List with one item per policy, `"client";q=30;w=60` and `"client";r=29;t=41`)
 * and `RateLimit-Limit/Remaining/Reset` of the tightest policy; 429 (in the interface's envelope)
 * adds Retry-After.
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
    if (p) return p.clientId ? `client:${p.clientId}` : `apikey:${p.organizationId}`;
    return `ip:${req.ip}`;
  }

  protected async handleRequest(r: ThrottlerRequest): Promise<boolean> {
    const { context, limit, ttl, throttler, blockDuration, generateKey } = r;
    const { req, res } = this.getRequestResponse(context);
    const tracker = await this.getTracker(req);
    const settings = this.reflector.get<RateLimitSettings | undefined>(RATE_LIMIT, context.getHandler());
    const name = throttler.name ?? 'default';
    const keyOf = (who: string) => (settings ? `${settings.operation}:${who}` : generateKey(context, who, name));
    const counters: Counter[] = [];
    const own = await this.storageService.increment(keyOf(tracker), ttl, limit, blockDuration, name);
    counters.push({ policy: tracker.startsWith('ip:') ? 'ip' : 'client', limit, record: own });

    const orgId: string | undefined = req.principal?.organizationId;
    // a call refused by the caller's own limit does not spend the organization's budget (one client
    // retrying too fast must not lock its organization's other clients out)
    if (settings && orgId && !own.isBlocked) {
      const orgLimit = this.config[settings.organizationLimit] as number;
      const rec = await this.storageService.increment(keyOf(`org:${orgId}`), ttl, orgLimit, blockDuration, name);
      counters.push({ policy: 'organization', limit: orgLimit, record: rec });
    }

    const window = Math.ceil(ttl / 1000);
    const remaining = (c: Counter) => Math.max(0, c.limit - c.record.totalHits);
    const headers: Record<string, string> = {
      'RateLimit-Policy': counters.map((c) => `"${c.policy}";q=${c.limit};w=${window}`).join(', '),
      RateLimit: counters.map((c) => `"${c.policy}";r=${remaining(c)};t=${c.record.timeToExpire}`).join(', '),
    };
    const blocked = counters.filter((c) => c.record.isBlocked);
    // the legacy three fields describe the policy that binds first (blocked, else fewest remaining)
    const tightest = (blocked.length ? blocked : counters).reduce((a, b) => (remaining(b) < remaining(a) || (remaining(b) === remaining(a) && b.record.timeToExpire > a.record.timeToExpire) ? b : a));
    headers['RateLimit-Limit'] = String(tightest.limit);
    headers['RateLimit-Remaining'] = String(remaining(tightest));
    headers['RateLimit-Reset'] = String(tightest.record.timeToExpire);

    if (blocked.length) {
      const retryAfter = Math.max(...blocked.map((c) => c.record.timeToBlockExpire || c.record.timeToExpire));
      throw new ApiError(429, 'Too many requests; retry later.', { headers: { 'Retry-After': String(retryAfter), ...headers }, oauthError: 'slow_down' });
    }
    for (const [k, v] of Object.entries(headers)) this.setResponseHeader(res, k, v);
    return true;
  }
}
