import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import type { StoredOrder } from '../orders.repository.js';
import type { Metadata } from '../../validation/metadata.js';
import type { OrderStatus } from '../order-status.js';
import { ID_SCHEMA } from '../../validation/parse-id.pipe.js';
import { OrderField } from './order-fields.js';

@ApiSchema({ name: 'Order', description: 'An order for an animal.' })
export class OrderDto {
  @ApiProperty({ ...ID_SCHEMA, description: 'Unique identifier, assigned when placed.', example: 1 })
  id: number;

  @OrderField.petId()
  petId: number;

  @OrderField.quantity()
  quantity: number;

  @OrderField.status()
  status: OrderStatus;

  @OrderField.shipDate('answered', { required: false })
  shipDate?: string;

  @OrderField.complete()
  complete: boolean;

  @OrderField.metadata()
  metadata: Metadata;

  /** The answer's shape: shipDate as an RFC 3339 string in UTC, left out when there is none. */
  static from({ id, petId, quantity, status, shipDate, complete, metadata }: StoredOrder): OrderDto {
    return shipDate
      ? { id, petId, quantity, status, shipDate: shipDate.toISOString(), complete, metadata }
      : { id, petId, quantity, status, complete, metadata };
  }
}
