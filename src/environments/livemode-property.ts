import { ApiProperty } from '@nestjs/swagger';

/**
 * The document of an answer's `livemode` (Stripe's name): the service gives it, from the environment
 * the object lives in; no client sends it, so it has no validator. A resource's shape declares it
 * as its last field (`field.assigned<boolean>(LivemodeProperty)`).
 */
export const LivemodeProperty = (): PropertyDecorator =>
  ApiProperty({
    type: 'boolean',
    description: 'true for an object of the live environment, false for one of a sandbox.',
    example: true,
  });
