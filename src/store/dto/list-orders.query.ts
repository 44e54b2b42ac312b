import { IsOptional } from 'class-validator';
import { PageQuery } from '../../pagination/page-query.dto.js';
import { type Metadata, MetadataFilter } from '../../validation/metadata.js';
import type { OrderStatus } from '../order-status.js';
import { OrderField } from './order-fields.js';

export class ListOrdersQuery extends PageQuery {
  @OrderField.status({ required: false, description: 'Only orders with this status.', example: 'placed' })
  @IsOptional()
  status?: OrderStatus;

  @MetadataFilter('orders')
  metadata?: Metadata;
}
