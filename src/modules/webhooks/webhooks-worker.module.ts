import { Module } from '@nestjs/common';
import { DeliveryService } from './delivery.service';
import { RelayService } from './relay.service';
import { WebhookWorkers } from './webhook-workers';

/** Webhook relay and delivery consumers. Imported by the worker module only. */
@Module({
  providers: [DeliveryService, RelayService, WebhookWorkers],
  exports: [DeliveryService, RelayService],
})
export class WebhooksWorkerModule {}
