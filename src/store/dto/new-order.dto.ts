import { ApiSchema } from '@nestjs/swagger';
import { ValidateBy, ValidateIf } from 'class-validator';
import type { Metadata } from '../../validation/metadata.js';
import type { OrderStatus } from '../order-status.js';
import { OrderField } from './order-fields.js';

/**
 * complete belongs to delivery: a new order is complete exactly when it is placed delivered. 1.4.0
 * stored whatever was sent, so an order placed complete and then cancelled read complete.
 */
function CompleteMatchesStatus(): PropertyDecorator {
  return ValidateBy({
    name: 'completeMatchesStatus',
    validator: {
      validate: (complete: unknown, args) => complete === ((args?.object as { status?: unknown }).status === 'delivered'),
      defaultMessage: () => 'complete must be true only for an order placed delivered (complete belongs to delivery): leave it out',
    },
  });
}

/** Absent means the default; an explicit null is not a value. */
const unlessAbsent = ValidateIf((_, value) => value !== undefined);

@ApiSchema({ name: 'NewOrder', description: 'An order to place for an animal.' })
export class NewOrderDto {
  @OrderField.petId()
  petId: number;

  @OrderField.quantity()
  quantity: number;

  @OrderField.placedStatus({ required: false, default: 'placed' })
  @unlessAbsent
  status?: OrderStatus;

  @OrderField.shipDate('sent', { required: false })
  @unlessAbsent
  shipDate?: string;

  @OrderField.complete({
    required: false,
    description:
      'Whether the order is complete, which it is exactly when delivered: it may be left out, or given as the status ' +
      'makes it (true with delivered, false otherwise); any other value is refused.',
    // The example status's: Swagger UI's Try it out sends the example body, which would otherwise say true (a 400).
    example: false,
  })
  @unlessAbsent
  @CompleteMatchesStatus()
  complete?: boolean;

  @OrderField.metadata({ required: false })
  metadata?: Metadata;
}
