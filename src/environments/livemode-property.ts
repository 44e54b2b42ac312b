import { ApiProperty } from '@nestjs/swagger';

/**
 * The document of an answer's `livemode` (Stripe's name): the service gives it, from the environment
 * the object lives in; no client sends it, so it has no validator. Every object that has it declares
 * it here, last, with what it means for that object: its default, true, is what an answer of a
 * service before 1.6.0 (live alone) left out, as the SDKs read it. A resource's shape declares it as
 * its last field (`field.assigned<boolean>(() => LivemodeProperty())`).
 */
export const LivemodeProperty = (
  description = 'true for an object of the live environment, false for one of a sandbox.',
): PropertyDecorator => ApiProperty({ type: 'boolean', description, default: true, example: true });
