import { ValidateBy, type ValidationOptions } from 'class-validator';

/**
 * A name as the contract means it: a string of `min` to `max` characters (Unicode code points, as
 * MySQL counts them, so an emoji counts once) that is not only white space and is well-formed
 * UTF-16 (a lone surrogate could not be stored as UTF-8).
 */
export function isName(value: unknown, min: number, max: number): value is string {
  if (typeof value !== 'string' || !value.isWellFormed() || !/\S/.test(value)) return false;
  const length = [...value].length;
  return length >= min && length <= max;
}

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
