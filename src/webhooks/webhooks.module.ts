import { Module } from '@nestjs/common';
import { IdempotencyModule } from '../idempotency/idempotency.module.js';
import { MetricsModule } from '../metrics/metrics.module.js';
import { DeliveriesRepository } from './deliveries.repository.js';
import { Deliverer } from './deliverer.js';
import { DeliveryMetrics } from './delivery-metrics.js';
import { Outbox } from './outbox.js';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository.js';
import { EventsController, WebhookEndpointsController } from './webhooks.controller.js';
import { WebhooksService } from './webhooks.service.js';

/** Events and their signed delivery to webhook endpoints; the modules that write import it for the Outbox. */
@Module({
  imports: [IdempotencyModule, MetricsModule],
  controllers: [WebhookEndpointsController, EventsController],
  providers: [Outbox, DeliveriesRepository, WebhookEndpointsRepository, Deliverer, DeliveryMetrics, WebhooksService],
  exports: [Outbox],
})
export class WebhooksModule {}
