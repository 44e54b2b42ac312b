import { ValidateBy, type ValidationOptions } from 'class-validator';

/**
 * A name as the contract means it: a string of `min` to `max` characters (Unicode code points, as
 * MySQL counts them, so emoji count once) that is not only white space and is well-formed UTF-16
 * (a lone surrogate could not be stored as UTF-8).
 */
export function IsName(min: number, max: number, options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isName',
      validator: {
        validate: (value: unknown) => {
          if (typeof value !== 'string' || !value.isWellFormed() || !/\S/.test(value)) return false;
          const length = [...value].length;
          return length >= min && length <= max;
        },
        defaultMessage: () => `$property must be a string of ${min} to ${max} characters, not only white space`,
      },
    },
    options,
  );
}
