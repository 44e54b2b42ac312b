import type { ApiPropertyOptions } from '@nestjs/swagger';
import { ORDER_STATUSES } from '../order-status.js';
import { ID_SCHEMA } from '../../validation/parse-id.pipe.js';

/** The document's view of the fields Order and NewOrder share. */
export const PET_ID_PROPERTY: ApiPropertyOptions = {
  ...ID_SCHEMA,
  description: 'The animal ordered; it must exist.',
  example: 1,
};

export const QUANTITY_PROPERTY: ApiPropertyOptions = { type: 'integer', format: 'int32', minimum: 1, maximum: 1000, example: 1 };

export const ORDER_STATUS_PROPERTY: ApiPropertyOptions = {
  enum: ORDER_STATUSES,
  enumName: 'OrderStatus',
  description: 'Where the order stands.',
};

export const SHIP_DATE_PROPERTY: ApiPropertyOptions = {
  type: 'string',
  format: 'date-time',
  description: 'When the order ships: an RFC 3339 date-time, answered in UTC.',
  example: '2026-12-01T09:30:00.000Z',
};

export const COMPLETE_PROPERTY: ApiPropertyOptions = { type: 'boolean', description: 'Whether the order is complete.' };
