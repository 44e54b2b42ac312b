import { applyDecorators } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsInt, Max, Min } from 'class-validator';
import { DATE_TIME_PROPERTY, DATE_TIME_RULE, IsDateTime } from '../../validation/is-date-time.validator.js';
import { IsId } from '../../validation/is-id.validator.js';
import { MetadataProperty } from '../../validation/metadata.js';
import { ID_SCHEMA } from '../../validation/parse-id.pipe.js';
import { NEW_ORDER_STATUSES, ORDER_STATUSES, type OrderStatus } from '../order-status.js';

const QUANTITY_MESSAGE = 'quantity must be an integer from 1 to 1000';
const SHIP_DATE_EXAMPLE = '2026-12-01T09:30:00.000Z';

/** Where a field is: sent by a client (validated, as the rule for date-times says), or answered. */
type Side = 'sent' | 'answered';
/** How a field is documented where it is optional or has a default. */
type Presence<T> = { required?: boolean; default?: T; example?: T; description?: string };

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
