import { Controller, Get, Inject, Res } from '@nestjs/common';
import { ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { Public } from '../../core/auth/decorators';
import { REDIS } from '../../core/redis/redis.module';
import { UNAVAILABLE_RETRY_AFTER_SECONDS } from '../../core/routes/http-exception.filter';
import { NeutralApi } from '../../core/http/interfaces';

async function check(fn: () => Promise<unknown>): Promise<'ok' | 'error'> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([fn(), new Promise((_, reject) => (timer = setTimeout(() => reject(new Error('timeout')), 2000)))]);
    return 'ok';
  } catch {
    return 'error';
  } finally {
    clearTimeout(timer);
  }
}

/** The health answer (200 and 503). */
const HEALTH = {
  type: 'object',
  required: ['status', 'checks'],
  properties: {
    status: { type: 'string', enum: ['ok', 'degraded'] },
    checks: {
      type: 'object',
      required: ['postgres', 'redis'],
      properties: { postgres: { type: 'string', enum: ['ok', 'error'] }, redis: { type: 'string', enum: ['ok', 'error'] } },
    },
  },
};

@ApiTags('health')
@NeutralApi()
@Controller('health')
export class HealthController {
  constructor(
    private readonly ds: DataSource,
    @Inject(REDIS) private readonly redis: Redis,
  ) {}

  /** 200 when PostgreSQL and Redis answer, 503 with Retry-After (the outage answer's, a few seconds) otherwise. */
  @Public()
  @Get()
  @ApiResponse({ status: 200, description: 'PostgreSQL and Redis answer', schema: HEALTH })
  @ApiResponse({ status: 503, description: 'PostgreSQL or Redis does not answer (Retry-After)', schema: HEALTH })
  async health(@Res({ passthrough: true }) reply: FastifyReply) {
    const [postgres, redis] = await Promise.all([check(() => this.ds.query('SELECT 1')), check(() => this.redis.ping())]);
    const ok = postgres === 'ok' && redis === 'ok';
    reply.status(ok ? 200 : 503);
    if (!ok) reply.header('Retry-After', String(UNAVAILABLE_RETRY_AFTER_SECONDS));
    return { status: ok ? 'ok' : 'degraded', checks: { postgres, redis } };
  }
}
