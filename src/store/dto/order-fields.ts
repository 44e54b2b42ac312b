import { applyDecorators } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsInt, Max, Min, ValidateBy } from 'class-validator';
import { LivemodeProperty } from '../../environments/livemode-property.js';
import { DATE_TIME_PROPERTY, DATE_TIME_RULE } from '../../validation/date-time.js';
import { IsDateTime } from '../../validation/is-date-time.validator.js';
import { IsId } from '../../validation/is-id.validator.js';
import { type Metadata, MetadataProperty, NO_METADATA } from '../../validation/metadata.js';
import { ID_SCHEMA } from '../../validation/parse-id.pipe.js';
import { field, ResourceShape } from '../../validation/resource-shape.js';
import { NEW_ORDER_STATUSES, ORDER_STATUSES, type OrderStatus } from '../order-status.js';

const QUANTITY_MESSAGE = 'quantity must be an integer from 1 to 1000';
const SHIP_DATE_EXAMPLE = '2026-12-01T09:30:00.000Z';

/** Where a field is: sent by a client (validated, as the rule for date-times says), or answered. */
type Side = 'sent' | 'answered';
/** How a field is documented where it is optional or has a default. */
type Presence<T> = { required?: boolean; default?: T; example?: T; description?: string; nullable?: boolean };

/**
 * Each field of an order: its validation and its document, stated once. NewOrder, OrderPatch and
 * Order list the fields they have with these.
 */
export const OrderField = {
  petId: () => applyDecorators(ApiProperty({ ...ID_SCHEMA, description: 'The animal ordered; it must exist.', example: 1 }), IsId('petId')),

  quantity: () =>
    applyDecorators(
      ApiProperty({ type: 'integer', format: 'int32', minimum: 1, maximum: 1000, example: 1 }),
      IsInt({ message: QUANTITY_MESSAGE }),
      Min(1, { message: QUANTITY_MESSAGE }),
      Max(1000, { message: QUANTITY_MESSAGE }),
    ),

  /** Any status (an order's, or a move's): placed, approved, delivered, cancelled. */
  status: (presence: Presence<OrderStatus> = {}) =>
    applyDecorators(
      ApiProperty({ enum: ORDER_STATUSES, enumName: 'OrderStatus', description: 'Where the order stands.', ...presence }),
      IsIn(ORDER_STATUSES, { message: `status must be one of ${ORDER_STATUSES.join(', ')}` }),
    ),

  /** The statuses an order may be placed with: not cancelled. */
  placedStatus: (presence: Presence<OrderStatus> = {}) =>
    applyDecorators(
      ApiProperty({
        enum: NEW_ORDER_STATUSES,
        enumName: 'PlaceableOrderStatus',
        description: 'Where the order stands when placed: placed (the default) or approved hold the animal; delivered sells it.',
        ...presence,
      }),
      IsIn(NEW_ORDER_STATUSES, { message: `status must be one of ${NEW_ORDER_STATUSES.join(', ')}: an order is not placed cancelled` }),
    ),

  shipDate: (side: Side, presence: Presence<string> = {}) =>
    side === 'sent'
      ? applyDecorators(
          ApiProperty({
            ...DATE_TIME_PROPERTY,
            description: `When the order ships. ${DATE_TIME_RULE}`,
            example: SHIP_DATE_EXAMPLE,
            ...presence,
          }),
          IsDateTime(),
        )
      : ApiProperty({
          type: 'string',
          format: 'date-time',
          description: 'When the order ships, in UTC with milliseconds; absent when none was given.',
          example: SHIP_DATE_EXAMPLE,
          ...presence,
        }),

  complete: (presence: Presence<boolean> = {}) =>
    applyDecorators(
      ApiProperty({ type: 'boolean', description: 'Whether the order is complete: exactly when it is delivered.', ...presence }),
      IsBoolean({ message: 'complete must be true or false' }),
    ),

  metadata: MetadataProperty,
};

/**
 * complete belongs to delivery: a new order is complete exactly when it is placed delivered. 1.4.0
 * stored whatever was sent, so an order placed complete and then cancelled read complete.
 */
function CompleteMatchesStatus(): PropertyDecorator {
  return ValidateBy({
    name: 'completeMatchesStatus',
    validator: {
      validate: (complete: unknown, args) => complete === ((args?.object as { status?: unknown }).status === 'delivered'),
      defaultMessage: () => 'complete must be true only for an order placed delivered (complete belongs to delivery): leave it out',
    },
  });
}

/**
 * An order, declared once: its fields in the order every answer lists them, each with how placing
 * fills it in and a Merge Patch changes it (ResourceShape), and where a shape documents it otherwise
 * (the statuses an order is placed with; a ship date as sent). Order, NewOrder and OrderPatch, the
 * columns OrdersRepository reads and writes, and the document's lists of fields come from here.
 */
export const ORDER = new ResourceShape({
  id: field.assigned<number>(() => ApiProperty({ ...ID_SCHEMA, description: 'Unique identifier, assigned when placed.', example: 1 })),
  petId: field.fixed<number>(OrderField.petId),
  quantity: field.fixed<number>(OrderField.quantity),
  status: field.defaulted<OrderStatus>('placed', OrderField.status, {
    create: OrderField.placedStatus,
    patch: (presence) => OrderField.status({ ...presence, example: 'approved' }),
  }),
  shipDate: field.omittable<string, Date | null>((presence) => OrderField.shipDate('answered', presence), {
    create: (presence) => OrderField.shipDate('sent', presence),
    patch: (presence) => OrderField.shipDate('sent', presence),
    stored: (sent) => (sent === undefined ? null : new Date(sent)),
    // In UTC with milliseconds; left out when none.
    answered: (stored) => stored?.toISOString(),
  }),
  complete: field.derived<boolean>(OrderField.complete, {
    create: (presence) =>
      applyDecorators(
        CompleteMatchesStatus(),
        OrderField.complete({
          ...presence,
          description:
            'Whether the order is complete, which it is exactly when delivered: it may be left out, or given as the status ' +
            'makes it (true with delivered, false otherwise); any other value is refused.',
          // The example status's: Swagger UI's Try it out sends the example body, which would otherwise say true (a 400).
          example: false,
        }),
      ),
  }),
  metadata: field.merged<Metadata>(NO_METADATA, OrderField.metadata),
  // Last in every answer (DECISIONS "Sandboxes"); given by the environment, as the id by the insert.
  livemode: field.assigned<boolean>(() => LivemodeProperty()),
});
