import { ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { PatchField } from '../../validation/patch-field.validator.js';
import { IsIn } from 'class-validator';
import { ORDER_STATUSES, type OrderStatus } from '../order-status.js';
import { IsDateTime } from '../../validation/is-date-time.validator.js';
import { ORDER_STATUS_PROPERTY, SHIP_DATE_PROPERTY } from './order-properties.js';

@ApiSchema({
  name: 'OrderPatch',
  description:
    'A JSON Merge Patch (RFC 7396) of an order: its status moves placed to approved, approved to delivered (which sells ' +
    'the animal and completes the order); its shipDate may be set while the order is open (delivered and cancelled ' +
    'are final). A field left out is unchanged; none may be null. ' +
    'An order is cancelled with POST /store/orders/{orderId}/cancel.',
})
export class OrderPatchDto {
  @ApiPropertyOptional({ ...ORDER_STATUS_PROPERTY, example: 'approved' })
  @IsIn(ORDER_STATUSES, { message: `status must be one of ${ORDER_STATUSES.join(', ')}` })
  @PatchField()
  status?: OrderStatus;

  @ApiPropertyOptional(SHIP_DATE_PROPERTY)
  @IsDateTime()
  @PatchField()
  shipDate?: string;
}
