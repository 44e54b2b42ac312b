import { Module } from '@nestjs/common';
import { EventsModule } from '../events/events.module.js';
import { IdempotencyModule } from '../idempotency/idempotency.module.js';
import { WebhookDeliveryModule } from '../webhook-delivery/webhook-delivery.module.js';
import { EventsController } from './events.controller.js';
import { WebhookEndpointsController } from './webhook-endpoints.controller.js';
import { WebhooksService } from './webhooks.service.js';

/** The webhooks' API: the endpoints events are POSTed to, and the events; their delivery is webhook-delivery/'s. */
@Module({
  imports: [WebhookDeliveryModule, EventsModule, IdempotencyModule],
  controllers: [WebhookEndpointsController, EventsController],
  providers: [WebhooksService],
})
export class WebhooksModule {}
