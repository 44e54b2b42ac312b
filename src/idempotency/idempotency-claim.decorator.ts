import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';

/** The request's IdempotentRequest, or undefined when it came without an Idempotency-Key. */
export const Idempotency = createParamDecorator((_: unknown, context: ExecutionContext) => context.getArgByIndex<Request>(0).idempotency);
