import { ValidateBy, type ValidationOptions } from 'class-validator';
import { isName } from './name.js';

/** The name rule (name.ts) on a DTO's property, with the message a client gets. */
export function IsName(min: number, max: number, options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isName',
      validator: {
        validate: (value: unknown) => isName(value, min, max),
        defaultMessage: () => `$property must be a string of ${min} to ${max} characters, not only white space`,
      },
    },
    options,
  );
}
