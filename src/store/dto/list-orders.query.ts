import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { PageQuery } from '../../pagination/page-query.dto.js';
import { ORDER_STATUSES, type OrderStatus } from '../order-status.js';
import { ORDER_STATUS_PROPERTY } from './order-properties.js';

export class ListOrdersQuery extends PageQuery {
  @ApiPropertyOptional({ ...ORDER_STATUS_PROPERTY, description: 'Only orders with this status.', example: 'placed' })
  @IsOptional()
  @IsIn(ORDER_STATUSES, { message: `status must be one of ${ORDER_STATUSES.join(', ')}` })
  status?: OrderStatus;
}
