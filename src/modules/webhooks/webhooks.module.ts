import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Webhook } from './webhook.entity';
import { WebhooksService } from './webhooks.service';
import { WebhooksV1Controller } from './webhooks.v1.controller';

/** /v1 webhooks (API process). Relay and delivery run in the worker: see webhooks-worker.module.ts. */
@Module({
  imports: [TypeOrmModule.forFeature([Webhook])],
  controllers: [WebhooksV1Controller],
  providers: [WebhooksService],
  exports: [WebhooksService],
})
export class WebhooksModule {}
