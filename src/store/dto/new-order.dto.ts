import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsInt, Max, Min, ValidateBy, ValidateIf } from 'class-validator';
import { NEW_ORDER_STATUSES, type OrderStatus } from '../order-status.js';
import { IsDateTime } from '../../validation/is-date-time.validator.js';
import { COMPLETE_PROPERTY, PET_ID_PROPERTY, QUANTITY_PROPERTY, SHIP_DATE_PROPERTY } from './order-properties.js';

const PET_ID_MESSAGE = `petId must be an integer from 1 to ${Number.MAX_SAFE_INTEGER}`;
const QUANTITY_MESSAGE = 'quantity must be an integer from 1 to 1000';
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
  @ApiProperty(PET_ID_PROPERTY)
  @IsInt({ message: PET_ID_MESSAGE })
  @Min(1, { message: PET_ID_MESSAGE })
  @Max(Number.MAX_SAFE_INTEGER, { message: PET_ID_MESSAGE })
  petId: number;

  @ApiProperty(QUANTITY_PROPERTY)
  @IsInt({ message: QUANTITY_MESSAGE })
  @Min(1, { message: QUANTITY_MESSAGE })
  @Max(1000, { message: QUANTITY_MESSAGE })
  quantity: number;

  @ApiPropertyOptional({
    enum: NEW_ORDER_STATUSES,
    enumName: 'PlaceableOrderStatus',
    default: 'placed',
    description: 'Where the order stands when placed: placed (the default) or approved hold the animal; delivered sells it.',
  })
  @unlessAbsent
  @IsIn(NEW_ORDER_STATUSES, { message: `status must be one of ${NEW_ORDER_STATUSES.join(', ')}: an order is not placed cancelled` })
  status?: OrderStatus;

  @ApiPropertyOptional(SHIP_DATE_PROPERTY)
  @unlessAbsent
  @IsDateTime()
  shipDate?: string;

  @ApiPropertyOptional({
    ...COMPLETE_PROPERTY,
    description:
      'Whether the order is complete, which it is exactly when delivered: it may be left out, or given as the status ' +
      'makes it (true with delivered, false otherwise); any other value is refused.',
    // The example status's: Swagger UI's Try it out sends the example body, which would otherwise say true (a 400).
    example: false,
  })
  @unlessAbsent
  @IsBoolean({ message: 'complete must be true or false' })
  @CompleteMatchesStatus()
  complete?: boolean;
}
