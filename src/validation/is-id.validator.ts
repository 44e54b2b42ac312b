import { applyDecorators } from '@nestjs/common';
import { IsInt, Max, Min } from 'class-validator';

/** An id sent in a body: a JSON integer from 1 to 2^53-1 (ID_SCHEMA), one message for each way it can fail. */
export function IsId(property: string): PropertyDecorator {
  const message = `${property} must be an integer from 1 to ${Number.MAX_SAFE_INTEGER}`;
  return applyDecorators(IsInt({ message }), Min(1, { message }), Max(Number.MAX_SAFE_INTEGER, { message }));
}
