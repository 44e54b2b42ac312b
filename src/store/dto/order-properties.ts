import type { ApiPropertyOptions } from '@nestjs/swagger';
import { ORDER_STATUSES } from '../order-status.js';
import { DATE_TIME_PROPERTY, DATE_TIME_RULE } from '../../validation/is-date-time.validator.js';
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

/** shipDate as a client sends it: the one rule for date-times. */
export const SHIP_DATE_PROPERTY: ApiPropertyOptions = {
  ...DATE_TIME_PROPERTY,
  description: `When the order ships. ${DATE_TIME_RULE}`,
  example: '2026-12-01T09:30:00.000Z',
};

/** shipDate as answered: UTC, with milliseconds. */
export const ANSWERED_SHIP_DATE_PROPERTY: ApiPropertyOptions = {
  type: 'string',
  format: 'date-time',
  description: 'When the order ships, in UTC with milliseconds; absent when none was given.',
  example: '2026-12-01T09:30:00.000Z',
};

export const COMPLETE_PROPERTY: ApiPropertyOptions = { type: 'boolean', description: 'Whether the order is complete.' };
