import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuthModule } from '../auth/auth.module.js';
import { AppConfig } from '../config/app-config.js';
import { EventsModule } from '../events/events.module.js';
import { MetricsModule } from '../metrics/metrics.module.js';
import { AddressPolicy } from './address-policy.js';
import { Deliverer } from './deliverer.js';
import { DeliveryAttempts } from './delivery-attempts.js';
import { DeliveryLogRepository } from './delivery-log.repository.js';
import { DeliveryMetrics } from './delivery-metrics.js';
import { DeliveryQueueRepository } from './delivery-queue.repository.js';
import { MAX_IN_FLIGHT } from './delivery-slots.js';
import { EndpointHealth } from './endpoint-health.js';
import { WebhookAttempt } from './webhook-attempt.entity.js';
import { WebhookDelivery } from './webhook-delivery.entity.js';
import { WebhookEndpoint } from './webhook-endpoint.entity.js';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository.js';
import { WebhookSender } from './webhook-sender.js';

/**
 * The signed delivery of the events the writes record (events/) to the endpoints subscribed, in
 * every instance beside the API, and the tables it works on (endpoints, deliveries, attempts); the
 * webhooks' API (webhooks/) sits above it and hands it what the API's calls change.
 */
@Module({
  imports: [TypeOrmModule.forFeature([WebhookEndpoint, WebhookDelivery, WebhookAttempt]), EventsModule, MetricsModule, AuthModule],
  providers: [
    // One policy for the URLs the API accepts and the addresses the sender connects to.
    { provide: AddressPolicy, inject: [AppConfig], useFactory: (config: AppConfig) => new AddressPolicy(config.webhooks.allowedNetworks) },
    {
      provide: WebhookSender,
      inject: [AddressPolicy, AppConfig],
      useFactory: (policy: AddressPolicy, config: AppConfig) => new WebhookSender(policy, config.webhooks.attemptTimeoutMs, MAX_IN_FLIGHT),
    },
    DeliveryQueueRepository,
    DeliveryLogRepository,
    WebhookEndpointsRepository,
    DeliveryMetrics,
    DeliveryAttempts,
    EndpointHealth,
    Deliverer,
  ],
  exports: [AddressPolicy, DeliveryLogRepository, WebhookEndpointsRepository, Deliverer],
})
export class WebhookDeliveryModule {}
