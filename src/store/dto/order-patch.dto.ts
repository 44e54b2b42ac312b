import { ApiSchema } from '@nestjs/swagger';
import { ValidateIf } from 'class-validator';
import { MergePatch } from '../../validation/merge-patch.js';
import type { Metadata } from '../../validation/metadata.js';
import type { OrderStatus } from '../order-status.js';
import { OrderField } from './order-fields.js';

/** A field left out is unchanged (a null is refused: MergePatch). */
const unlessAbsent = ValidateIf((_, value) => value !== undefined);

@ApiSchema({
  name: 'OrderPatch',
  description:
    'A JSON Merge Patch (RFC 7396) of an order: its status moves placed to approved, approved to delivered (which sells ' +
    'the animal and completes the order); its shipDate may be set while the order is open (delivered and cancelled ' +
    'are final). Its metadata merges (a key set to null is removed, `metadata: null` removes them all), final or not. ' +
    'A field left out is unchanged; none may be null but metadata. ' +
    'An order is cancelled with POST /store/orders/{orderId}/cancel.',
})
@MergePatch(['status', 'shipDate'] satisfies (keyof OrderPatchDto)[])
export class OrderPatchDto {
  @OrderField.status({ required: false, example: 'approved' })
  @unlessAbsent
  status?: OrderStatus;

  @OrderField.shipDate('sent', { required: false })
  @unlessAbsent
  shipDate?: string;

  @OrderField.metadata({ required: false })
  metadata?: Metadata | null;
}
