// The rule alone: the key tool checks names too, and starts faster without class-validator (is-name.validator.ts).

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
