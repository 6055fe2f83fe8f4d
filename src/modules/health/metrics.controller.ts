import { Controller, Get, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Public } from '../../core/auth/decorators';
import { ApiError } from '../../core/http/api-error';
import { NeutralApi } from '../../core/http/interfaces';
import { Metrics } from '../../core/metrics/metrics';

/**
 * `GET /metrics`: the API process's Prometheus metrics (core/metrics/metrics.ts). With METRICS_TOKEN
 * set, `Authorization: Bearer <METRICS_TOKEN>` (401 otherwise); unset, loopback clients only (403
 * otherwise). Not part of the published interfaces, so not in /openapi.json.
 */
@ApiExcludeController()
@NeutralApi()
@Controller('metrics')
export class MetricsController {
  constructor(private readonly metrics: Metrics) {}

  @Public()
  @Get()
  async scrape(@Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    const allowed = this.metrics.allowed(req.raw);
    if (allowed === 'unauthorized') throw new ApiError(401, 'GET /metrics needs Authorization: Bearer <METRICS_TOKEN>.', { headers: { 'WWW-Authenticate': 'Bearer realm="metrics"' } });
    if (allowed === 'forbidden') throw new ApiError(403, 'GET /metrics answers loopback clients only while METRICS_TOKEN is not set.');
    const { body, contentType } = await this.metrics.render();
    reply.status(200).header('Content-Type', contentType).header('Cache-Control', 'no-store').send(body);
  }
}
