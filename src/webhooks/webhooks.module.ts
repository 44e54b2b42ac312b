import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { EventsModule } from '../events/events.module.js';
import { IdempotencyModule } from '../idempotency/idempotency.module.js';
import { MetricsModule } from '../metrics/metrics.module.js';
import { EventsController } from './events.controller.js';
import { DeliveriesRepository } from './deliveries.repository.js';
import { Deliverer } from './deliverer.js';
import { DeliveryMetrics } from './delivery-metrics.js';
import { WebhookAttempt } from './webhook-attempt.entity.js';
import { WebhookDelivery } from './webhook-delivery.entity.js';
import { WebhookEndpoint } from './webhook-endpoint.entity.js';
import { WebhookEndpointsController } from './webhook-endpoints.controller.js';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository.js';

import { WebhooksService } from './webhooks.service.js';

/** The webhook endpoints, and the signed delivery to them of the events the writes record (events/). */
@Module({
  imports: [TypeOrmModule.forFeature([WebhookEndpoint, WebhookDelivery, WebhookAttempt]), EventsModule, IdempotencyModule, MetricsModule],
  controllers: [WebhookEndpointsController, EventsController],
  providers: [DeliveriesRepository, WebhookEndpointsRepository, Deliverer, DeliveryMetrics, WebhooksService],
})
export class WebhooksModule {}
