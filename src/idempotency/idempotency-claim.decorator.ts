import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';

/** The request's IdempotentRequest, or undefined when it came without an Idempotency-Key. */
export const Idempotency = createParamDecorator(
  (_: unknown, context: ExecutionContext) => context.switchToHttp().getRequest<Request>().idempotency,
);
