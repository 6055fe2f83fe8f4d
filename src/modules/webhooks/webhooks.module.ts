import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Webhook } from './webhook.entity';
import { WebhooksService } from './webhooks.service';
import { WebhooksV1Controller } from './webhooks.v1.controller';
import { WebhookAttempt } from './webhook-attempt.entity';
import { WebhookDelivery } from './webhook-delivery.entity';

/** /v1 webhooks (API process). Relay and delivery run in the worker: see webhooks-worker.module.ts. */
@Module({
  imports: [TypeOrmModule.forFeature([Webhook, WebhookAttempt, WebhookDelivery])],
  controllers: [WebhooksV1Controller],
  providers: [WebhooksService],
  exports: [WebhooksService],
})
export class WebhooksModule {}
