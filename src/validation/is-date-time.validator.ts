import { ValidateBy, type ValidationOptions } from 'class-validator';
import { isDateTime } from './date-time.js';

/** The date-time rule (date-time.ts) on a DTO's property, with the message a client gets. */
export function IsDateTime(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isDateTime',
      validator: {
        validate: isDateTime,
        defaultMessage: () =>
          '$property must be an RFC 3339 date-time with an offset, such as 2026-12-01T09:30:00Z, in the years 1000 to 9999',
      },
    },
    options,
  );
}
