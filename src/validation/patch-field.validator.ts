import { applyDecorators } from '@nestjs/common';
import { ValidateBy, ValidateIf } from 'class-validator';

/**
 * A field of a JSON Merge Patch: absent, it is left as it is; present, it must be valid, and null
 * is refused by name (in a Merge Patch null removes a field, and these cannot go). Put it last,
 * right above the property: class-validator then checks it first, and a null is named as such.
 */
export function PatchField(): PropertyDecorator {
  return applyDecorators(
    ValidateIf((_, value) => value !== undefined),
    ValidateBy({
      name: 'notNull',
      validator: {
        validate: (value: unknown) => value !== null,
        defaultMessage: () => '$property must not be null: leave it out to keep it as it is',
      },
    }),
  );
}
