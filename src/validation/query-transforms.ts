import type { TransformFnParams } from 'class-transformer';

/** A query value spelled as a plain integer becomes a number; anything else stays as sent, for the validators to reject. */
export function integerFromQuery({ value }: TransformFnParams): unknown {
  return typeof value === 'string' && /^-?\d+$/.test(value) ? Number(value) : value;
}
