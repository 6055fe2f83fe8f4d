import { Controller, Get, Inject, Res } from '@nestjs/common';
import { ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { Public } from '../../core/auth/decorators';
import { REDIS } from '../../core/redis/redis.module';
import { UNAVAILABLE_RETRY_AFTER_SECONDS } from '../../core/routes/http-exception.filter';
import { NeutralApi } from '../../core/http/interfaces';
import { openApi, StringEnum } from '../../core/openapi/declared-shape';
import { Type, type Static } from '@sinclair/typebox';

async function check(fn: () => Promise<unknown>): Promise<Health['checks']['postgres']> {
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

const CHECK = StringEnum(['ok', 'error'] as const);

/** The health answer (200 and 503), declared once (core/openapi/declared-shape.ts): the handler's type and the document's schema. */
const HealthSchema = Type.Object({
  status: StringEnum(['ok', 'degraded'] as const),
  checks: Type.Object({ postgres: CHECK, redis: CHECK }),
});
type Health = Static<typeof HealthSchema>;

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
  @ApiResponse({ status: 200, description: 'PostgreSQL and Redis answer', schema: openApi(HealthSchema) })
  @ApiResponse({ status: 503, description: 'PostgreSQL or Redis does not answer (Retry-After)', schema: openApi(HealthSchema) })
  async health(@Res({ passthrough: true }) reply: FastifyReply): Promise<Health> {
    const [postgres, redis] = await Promise.all([check(() => this.ds.query('SELECT 1')), check(() => this.redis.ping())]);
    const ok = postgres === 'ok' && redis === 'ok';
    reply.status(ok ? 200 : 503);
    if (!ok) reply.header('Retry-After', String(UNAVAILABLE_RETRY_AFTER_SECONDS));
    return { status: ok ? 'ok' : 'degraded', checks: { postgres, redis } };
  }
}
