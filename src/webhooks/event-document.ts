import type { OpenAPIObject, SchemaObject } from '@nestjs/swagger';
import { API_VERSION } from '../config/api-version.js';
import { TEST_EVENT_TYPE } from '../events/event-types.js';

/** `previousAttributes` of an update event: the fields of `schema` that changed, as they were (null: it had none). */
function changedFieldsOf(schema: string, example: Record<string, unknown>): SchemaObject {
  return {
    type: 'object',
    additionalProperties: true,
    description: `The fields of the ${schema} that changed, with their values before the change (Stripe's shape); null for a field it did not have.`,
    example,
  };
}

/**
 * An event's `request` in a delivery: an EventCause (EventRequestDto, the shape stated once), or null.
 * 1.5.0 stated the shape twice, as EventRequest here and EventCause on `GET /events`; code generated
 * from it names both, so both names stay, each the type it was (this one nullable).
 */
const EVENT_REQUEST: SchemaObject = {
  type: 'object',
  allOf: [{ $ref: '#/components/schemas/EventCause' }],
  nullable: true,
  description:
    'The request that caused the event (from API version 1.5.0; absent from older events): an EventCause, or null for an event ' +
    'the service made of its own accord.',
};

/** Each event type's payload schema: its `type`, and the schema of its `data.object`. */
const EVENT_SCHEMAS = [
  {
    name: 'PetCreatedEvent',
    type: 'pet.created',
    object: { $ref: '#/components/schemas/Pet' },
    what: 'A pet was added: the Pet as createPet answered it.',
  },
  {
    name: 'PetUpdatedEvent',
    type: 'pet.updated',
    object: { $ref: '#/components/schemas/Pet' },
    previousAttributes: changedFieldsOf('Pet', { status: 'available' }),
    what: 'A pet changed, by updatePet or by an order that holds, sells or releases it: the Pet after the change.',
  },
  {
    name: 'PetDeletedEvent',
    type: 'pet.deleted',
    object: { $ref: '#/components/schemas/Pet' },
    what: 'A pet was removed by deletePet: the Pet as it was.',
  },
  {
    name: 'OrderPlacedEvent',
    type: 'order.placed',
    object: { $ref: '#/components/schemas/Order' },
    what: 'An order was placed: the Order as placeOrder answered it.',
  },
  {
    name: 'OrderUpdatedEvent',
    type: 'order.updated',
    object: { $ref: '#/components/schemas/Order' },
    previousAttributes: changedFieldsOf('Order', { status: 'placed' }),
    what: 'An order moved, by updateOrder or cancelOrder: the Order after the move.',
  },
  {
    name: 'WebhookTestEvent',
    type: TEST_EVENT_TYPE,
    object: {
      type: 'object',
      properties: { endpointId: { type: 'string', example: 'we_3q8kF0aZ1x2Yb7Lm' } },
      required: ['endpointId'],
    } satisfies SchemaObject,
    what: 'Sent by testWebhookEndpoint to that endpoint only: the endpoint it was sent to.',
  },
] as const;

/**
 * The document says what an endpoint receives: a schema per event type, and the delivery request
 * as a callback of createWebhookEndpoint (an OpenAPI 3.0 document has callbacks, not 3.1's
 * `webhooks`; the generators it is checked with all take 3.0.3).
 */
export function describeEventDeliveries(document: OpenAPIObject): void {
  const schemas = (document.components ??= {}).schemas ?? {};
  for (const schema of EVENT_SCHEMAS) {
    const { name, type, object, what } = schema;
    const previousAttributes: Record<string, SchemaObject> =
      'previousAttributes' in schema ? { previousAttributes: schema.previousAttributes } : {};
    schemas[name] = {
      type: 'object',
      description: `${what} Delivered as the body of a signed POST (see the callback of createWebhookEndpoint).`,
      properties: {
        id: {
          type: 'string',
          description: 'The event id: the `webhook-id` header too, the key to de-duplicate on.',
          example: 'evt_2b7Vq0kQm9XcRz1L8hNw',
        },
        type: { type: 'string', enum: [type] },
        createdAt: { type: 'string', format: 'date-time', description: 'When the write happened.' },
        apiVersion: { type: 'string', description: 'The API version whose schemas `data.object` follows.', example: API_VERSION },
        request: { $ref: '#/components/schemas/EventRequest' },
        data: { type: 'object', properties: { object, ...previousAttributes }, required: ['object'] },
        livemode: {
          type: 'boolean',
          description:
            "True for an event of live data, false for one of a sandbox's (from API version 1.6.0): an endpoint receives the events of its own environment only.",
        },
      },
      required: ['id', 'type', 'createdAt', 'apiVersion', 'data'],
    };
  }
  schemas.EventRequest = EVENT_REQUEST;
  document.components!.schemas = schemas;

  const create = document.paths['/webhook-endpoints']?.post;
  if (!create) throw new Error('the document has no createWebhookEndpoint to hang its deliveries on');
  create.callbacks = {
    event: {
      '{$request.body#/url}': {
        post: {
          operationId: 'deliverEvent',
          summary: 'An event, POSTed to the endpoint',
          description:
            'Each event of a type the endpoint subscribed to, POSTed as JSON and signed as the Standard Webhooks specification ' +
            'says: verify the signature over the raw body before parsing it (the SDK: `webhooks.verify`). Delivered at least ' +
            'once: de-duplicate on `webhook-id`. Any answer but a 2xx, or none within 10 s, is retried on the published ' +
            'schedule; redirects are not followed; `410 Gone` disables the endpoint.',
          tags: ['webhooks'],
          security: [],
          parameters: [
            deliveryHeader(
              'webhook-id',
              'The event id (`evt_…`), the same on every retry: the key to de-duplicate on.',
              'evt_2b7Vq0kQm9XcRz1L8hNw',
            ),
            deliveryHeader(
              'webhook-timestamp',
              'When this attempt was signed, in Unix seconds; refuse one more than 5 minutes off.',
              '1795219200',
            ),
            deliveryHeader(
              'webhook-signature',
              '`v1,` and the base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` under the secret, space-separated; two while a secret rolls.',
              'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=',
            ),
          ],
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: {
                  oneOf: EVENT_SCHEMAS.map(({ name }) => ({ $ref: `#/components/schemas/${name}` })),
                  discriminator: {
                    propertyName: 'type',
                    mapping: Object.fromEntries(EVENT_SCHEMAS.map(({ name, type }) => [type, `#/components/schemas/${name}`])),
                  },
                },
              },
            },
          },
          responses: {
            '200': { description: 'Received. Any 2xx counts; its body is kept (its first KiB) in the attempt log.' },
            '410': { description: 'Gone: the endpoint is disabled at once and sent nothing more.' },
          },
        },
      },
    },
  };
}

function deliveryHeader(name: string, description: string, example: string) {
  return { name, in: 'header' as const, required: true, description, schema: { type: 'string' as const, example } };
}
