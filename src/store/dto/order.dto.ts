import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import type { StoredOrder } from '../orders.repository.js';
import type { OrderStatus } from '../order-status.js';
import {
  ANSWERED_SHIP_DATE_PROPERTY,
  COMPLETE_PROPERTY,
  ORDER_STATUS_PROPERTY,
  PET_ID_PROPERTY,
  QUANTITY_PROPERTY,
} from './order-properties.js';
import { ID_SCHEMA } from '../../validation/parse-id.pipe.js';

@ApiSchema({ name: 'Order', description: 'An order for an animal.' })
export class OrderDto {
  @ApiProperty({ ...ID_SCHEMA, description: 'Unique identifier, assigned when placed.', example: 1 })
  id: number;

  @ApiProperty(PET_ID_PROPERTY)
  petId: number;

  @ApiProperty(QUANTITY_PROPERTY)
  quantity: number;

  @ApiProperty(ORDER_STATUS_PROPERTY)
  status: OrderStatus;

  @ApiPropertyOptional(ANSWERED_SHIP_DATE_PROPERTY)
  shipDate?: string;

  @ApiProperty(COMPLETE_PROPERTY)
  complete: boolean;

  /** The answer's shape: shipDate as an RFC 3339 string in UTC, left out when there is none. */
  static from({ id, petId, quantity, status, shipDate, complete }: StoredOrder): OrderDto {
    return shipDate
      ? { id, petId, quantity, status, shipDate: shipDate.toISOString(), complete }
      : { id, petId, quantity, status, complete };
  }
}
