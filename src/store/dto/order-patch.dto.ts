import { ApiSchema } from '@nestjs/swagger';
import { ResourceShape } from '../../validation/resource-shape.js';
import { ORDER } from './order-fields.js';

/** A Merge Patch of an order (ORDER): its fields, and which of them a null may remove, come from the declaration. */
@ApiSchema({
  name: 'OrderPatch',
  description:
    'A JSON Merge Patch (RFC 7396) of an order: its status moves placed to approved, approved to delivered (which sells ' +
    'the animal and completes the order); its shipDate may be set while the order is open (delivered and cancelled ' +
    'are final). Its metadata merges (a key set to null is removed, `metadata: null` removes them all), final or not. ' +
    `A field left out is unchanged; none may be null but ${ResourceShape.listed(ORDER.nullRemoves)}. ` +
    'An order is cancelled with POST /store/orders/{orderId}/cancel.',
})
export class OrderPatchDto extends ORDER.patchType() {}
