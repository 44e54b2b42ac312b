import { ApiKey } from './auth/api-key.entity.js';
import { EventRecord } from './events/event-record.entity.js';
import { IdempotencyRecord } from './idempotency/idempotency-record.entity.js';
import { Pet } from './pets/pet.entity.js';
import { PetMetadataEntry } from './pets/pet-metadata.entity.js';
import { Order } from './store/order.entity.js';
import { RequestLogEntry } from './request-log/request-log.entity.js';
import { Sandbox } from './sandboxes/sandbox.entity.js';
import { OrderMetadataEntry } from './store/order-metadata.entity.js';
import { WebhookAttempt } from './webhook-delivery/webhook-attempt.entity.js';
import { WebhookDelivery } from './webhook-delivery/webhook-delivery.entity.js';
import { WebhookEndpoint } from './webhook-delivery/webhook-endpoint.entity.js';

/**
 * Every table's entity, for a DataSource made outside Nest: TypeORM's CLI (ormconfig.ts), which
 * generates migrations from them, and the test that the migrations make the schema they declare
 * (test/e2e/schema.e2e-spec.ts). In the application each feature module registers its own.
 */
export const ENTITIES = [
  Pet,
  PetMetadataEntry,
  ApiKey,
  IdempotencyRecord,
  Order,
  OrderMetadataEntry,
  EventRecord,
  WebhookEndpoint,
  WebhookDelivery,
  WebhookAttempt,
  RequestLogEntry,
  Sandbox,
];
