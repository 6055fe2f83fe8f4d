import { Body, Controller, Param, Query, Req } from '@nestjs/common';
import type { Static } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { Auth } from '../../core/auth/decorators';
import type { Principal } from '../../core/auth/principal';
import { V1_PAGE_CAP, Paged, V1Page } from '../../core/pagination/v1-page';
import { WebhookDto, WebhookPatchDto } from './dto/webhook.dto';
import { SAMPLE_PATHS } from './samples';
import { WebhooksService } from './webhooks.service';
import {
  DeliverySchema,
  type DeliveryV1,
  PingSchema,
  type PingResult,
  presentDelivery,
  presentDeliveryOf,
  presentWebhook,
  type Replayed,
  ReplayedSchema,
  RotatedWebhookSchema,
} from './webhooks.presenter';
import { ApiOkResponse, ApiQuery, ApiResponse } from '@nestjs/swagger';
import { V1_UPDATED_SINCE_QUERY, v1UpdatedSince } from '../../core/pagination/updated-since';
import { v1PageSchema } from '../../core/openapi/v1-page-schema';
import { openApi } from '../../core/openapi/declared-shape';
import { V1 } from '../../core/http/interfaces';
import { ScopedRoutes } from '../../core/routes/scoped-routes';

const route = ScopedRoutes('webhooks');

/** /v1/webhooks: configuration, ping, the ten sample-* events, deliveries with their attempts. */
@V1()
@Controller('v1/webhooks')
export class WebhooksV1Controller {
  constructor(private readonly webhooks: WebhooksService) {}

  @route.get()
  @ApiQuery(V1_UPDATED_SINCE_QUERY)
  async list(@Auth() p: Principal, @Query() query: Record<string, unknown>, @Paged(V1_PAGE_CAP.small) page: V1Page) {
    const { rows, count } = await this.webhooks.list(p, page, v1UpdatedSince(query));
    return page.list(rows.map(presentWebhook), count);
  }

  @route.post()
  async create(@Auth() p: Principal, @Body() dto: WebhookDto) {
    const { webhook, secret } = await this.webhooks.create(p, dto);
    return { ...presentWebhook(webhook), secret };
  }

  @route.get(Object.keys(SAMPLE_PATHS))
  async sample(@Auth() p: Principal, @Req() req: FastifyRequest) {
    const name = (req.routeOptions.url ?? req.url).split('?')[0].replace(/\/+$/, '').split('/').pop()!;
    return this.webhooks.sample(p, SAMPLE_PATHS[name]);
  }

  @route.get(':webhook_id')
  async read(@Auth() p: Principal, @Param('webhook_id') id: string) {
    return presentWebhook(await this.webhooks.get(p, id));
  }

  @route.put(':webhook_id')
  async update(@Auth() p: Principal, @Param('webhook_id') id: string, @Body() dto: WebhookDto) {
    return presentWebhook(await this.webhooks.update(p, id, dto, true));
  }

  @route.patch(':webhook_id')
  async partialUpdate(@Auth() p: Principal, @Param('webhook_id') id: string, @Body() dto: WebhookPatchDto) {
    return presentWebhook(await this.webhooks.update(p, id, dto, false));
  }

  @route.delete(':webhook_id', 204)
  async remove(@Auth() p: Principal, @Param('webhook_id') id: string) {
    await this.webhooks.remove(p, id);
  }

  /**
   * A new signing secret, shown this once (with the webhook). Deliveries carry signatures with the
   * new and the old secret until `previous_secret_expires_at` (24 h by default), then the new only.
   */
  @route.post(':webhook_id/rotate-secret', 200)
  @ApiOkResponse({ description: 'The webhook with its new secret', schema: openApi(RotatedWebhookSchema) })
  async rotateSecret(@Auth() p: Principal, @Param('webhook_id') id: string): Promise<Static<typeof RotatedWebhookSchema>> {
    const { webhook, secret, previousSecretExpiresAt } = await this.webhooks.rotateSecret(p, id);
    return { ...presentWebhook(webhook), secret, previous_secret_expires_at: previousSecretExpiresAt.toISOString() };
  }

  @route.post(':webhook_id/ping', 200)
  @ApiOkResponse({ description: 'What the endpoint answered', schema: openApi(PingSchema) })
  async ping(@Auth() p: Principal, @Param('webhook_id') id: string): Promise<PingResult> {
    return this.webhooks.ping(p, id);
  }

  /** Replay a time range (CONVENTIONS §20, extension): `{since, until?}`; answers 202 `{replayed, since, until}`. */
  @route.post(':webhook_id/replay', 202)
  @ApiResponse({ status: 202, description: "The range's events, delivered again", schema: openApi(ReplayedSchema) })
  async replay(@Auth() p: Principal, @Param('webhook_id') id: string, @Body() body: unknown): Promise<Replayed> {
    return this.webhooks.replay(p, id, body);
  }

  @route.get(':webhook_id/deliveries')
  @ApiOkResponse({ description: "A page of the webhook's deliveries", schema: v1PageSchema(openApi(DeliverySchema)) })
  @ApiQuery(V1_UPDATED_SINCE_QUERY)
  async deliveries(@Auth() p: Principal, @Param('webhook_id') id: string, @Query() query: Record<string, unknown>, @Paged(V1_PAGE_CAP.small) page: V1Page) {
    const { rows, attempts, count } = await this.webhooks.listDeliveries(p, id, page, v1UpdatedSince(query));
    return page.list(
      rows.map((r) => presentDelivery(r, attempts.get(r.id) ?? [])),
      count,
    );
  }

  @route.get(':webhook_id/deliveries/:delivery_id')
  @ApiOkResponse({ description: 'The delivery with its attempts', schema: openApi(DeliverySchema) })
  async delivery(@Auth() p: Principal, @Param('webhook_id') id: string, @Param('delivery_id') deliveryId: string): Promise<DeliveryV1> {
    return presentDeliveryOf(await this.webhooks.getDelivery(p, id, deliveryId));
  }

  @route.post(':webhook_id/deliveries/:delivery_id/retry', 202)
  @ApiResponse({ status: 202, description: 'The delivery, queued again', schema: openApi(DeliverySchema) })
  async retry(@Auth() p: Principal, @Param('webhook_id') id: string, @Param('delivery_id') deliveryId: string): Promise<DeliveryV1> {
    return presentDeliveryOf(await this.webhooks.retryDelivery(p, id, deliveryId));
  }
}
