import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Put, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { Auth, Scopes } from '../../core/auth/decorators';
import type { Principal } from '../../core/auth/principal';
import { V1_PAGE_CAP, Paged, V1Page } from '../../core/pagination/v1-page';
import { WebhookDto, WebhookPatchDto } from './dto/webhook.dto';
import { SAMPLE_PATHS } from './samples';
import { WebhooksService } from './webhooks.service';
import { presentDelivery, presentWebhook } from './webhooks.presenter';
import { V1 } from '../../core/http/interfaces';

/** /v1/webhooks: configuration, ping, the ten sample-* events, deliveries with their attempts. */
@V1()
@Controller('v1/webhooks')
export class WebhooksV1Controller {
  constructor(private readonly webhooks: WebhooksService) {}

  @Get()
  @Scopes('webhooks:read')
  async list(@Auth() p: Principal, @Paged(V1_PAGE_CAP.small) page: V1Page) {
    const { rows, count } = await this.webhooks.list(p, page);
    return page.list(rows.map(presentWebhook), count);
  }

  @Post()
  @Scopes('webhooks:write')
  async create(@Auth() p: Principal, @Body() dto: WebhookDto) {
    const { webhook, secret } = await this.webhooks.create(p, dto);
    return { ...presentWebhook(webhook), secret };
  }

  @Get(Object.keys(SAMPLE_PATHS))
  @Scopes('webhooks:read')
  async sample(@Auth() p: Principal, @Req() req: FastifyRequest) {
    const name = (req.routeOptions.url ?? req.url).split('?')[0].replace(/\/+$/, '').split('/').pop()!;
    return this.webhooks.sample(p, SAMPLE_PATHS[name]);
  }

  @Get(':webhook_id')
  @Scopes('webhooks:read')
  async read(@Auth() p: Principal, @Param('webhook_id') id: string) {
    return presentWebhook(await this.webhooks.get(p, id));
  }

  @Put(':webhook_id')
  @Scopes('webhooks:write')
  async update(@Auth() p: Principal, @Param('webhook_id') id: string, @Body() dto: WebhookDto) {
    return presentWebhook(await this.webhooks.update(p, id, dto, true));
  }

  @Patch(':webhook_id')
  @Scopes('webhooks:write')
  async partialUpdate(@Auth() p: Principal, @Param('webhook_id') id: string, @Body() dto: WebhookPatchDto) {
    return presentWebhook(await this.webhooks.update(p, id, dto, false));
  }

  @Delete(':webhook_id')
  @HttpCode(204)
  @Scopes('webhooks:write')
  async remove(@Auth() p: Principal, @Param('webhook_id') id: string) {
    await this.webhooks.remove(p, id);
  }

  /**
   * A new signing secret, shown this once (with the webhook). Deliveries carry signatures with the
   * new and the old secret until `previous_secret_expires_at` (24 h by default), then the new only.
   */
  @Post(':webhook_id/rotate-secret')
  @HttpCode(200)
  @Scopes('webhooks:write')
  async rotateSecret(@Auth() p: Principal, @Param('webhook_id') id: string) {
    const { webhook, secret, previousSecretExpiresAt } = await this.webhooks.rotateSecret(p, id);
    return { ...presentWebhook(webhook), secret, previous_secret_expires_at: previousSecretExpiresAt.toISOString() };
  }

  @Post(':webhook_id/ping')
  @HttpCode(200)
  @Scopes('webhooks:write')
  async ping(@Auth() p: Principal, @Param('webhook_id') id: string) {
    return this.webhooks.ping(p, id);
  }

  @Get(':webhook_id/deliveries')
  @Scopes('webhooks:read')
  async deliveries(@Auth() p: Principal, @Param('webhook_id') id: string, @Paged(V1_PAGE_CAP.small) page: V1Page) {
    const { rows, attempts, count } = await this.webhooks.listDeliveries(p, id, page);
    return page.list(rows.map((r) => presentDelivery(r, attempts.get(r.id) ?? [])), count);
  }

  @Get(':webhook_id/deliveries/:delivery_id')
  @Scopes('webhooks:read')
  async delivery(@Auth() p: Principal, @Param('webhook_id') id: string, @Param('delivery_id') deliveryId: string) {
    const { row, attempts } = await this.webhooks.getDelivery(p, id, deliveryId);
    return presentDelivery(row, attempts);
  }

  @Post(':webhook_id/deliveries/:delivery_id/retry')
  @HttpCode(202)
  @Scopes('webhooks:write')
  async retry(@Auth() p: Principal, @Param('webhook_id') id: string, @Param('delivery_id') deliveryId: string) {
    const { row, attempts } = await this.webhooks.retryDelivery(p, id, deliveryId);
    return presentDelivery(row, attempts);
  }
}
