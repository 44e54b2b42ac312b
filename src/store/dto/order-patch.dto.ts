import { ApiSchema } from '@nestjs/swagger';
import { ValidateIf } from 'class-validator';
import { MergePatch } from '../../validation/merge-patch.js';
import type { OrderStatus } from '../order-status.js';
import { OrderField } from './order-fields.js';

/** A field left out is unchanged (a null is refused: MergePatch). */
const unlessAbsent = ValidateIf((_, value) => value !== undefined);

@ApiSchema({
  name: 'OrderPatch',
  description:
    'A JSON Merge Patch (RFC 7396) of an order: its status moves placed to approved, approved to delivered (which sells ' +
    'the animal and completes the order); its shipDate may be set while the order is open (delivered and cancelled ' +
    'are final). A field left out is unchanged; none may be null. ' +
    'An order is cancelled with POST /store/orders/{orderId}/cancel.',
})
@MergePatch(['status', 'shipDate'])
export class OrderPatchDto {
  @OrderField.status({ required: false, example: 'approved' })
  @unlessAbsent
  status?: OrderStatus;

  @OrderField.shipDate('sent', { required: false })
  @unlessAbsent
  shipDate?: string;
}
