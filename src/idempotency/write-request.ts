import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import type { EventCause } from '../events/event-types.js';
import type { IdempotentRequest } from './idempotency.js';
import { idempotentRequest } from './idempotency-key.js';

/**
 * The request that asks for a write, as its service needs it: its id, which the events it records
 * name (and the request log files it under), and its Idempotency-Key, when it sent one (the
 * Idempotency participant of its UnitOfWork).
 */
export class WriteRequest {
  constructor(
    readonly id: string,
    readonly idempotency: IdempotentRequest | undefined,
  ) {}

  /** What the write's events say caused them. */
  get cause(): EventCause {
    return { id: this.id, idempotencyKey: this.idempotency?.idempotencyKey ?? null };
  }

  /** Answered with the response stored for an earlier request with the same Idempotency-Key. */
  get replayed(): boolean {
    return this.idempotency?.replayed ?? false;
  }
}

/**
 * The handler's parameter of the request asking for a write (WriteRequest); 400 when its
 * Idempotency-Key is malformed. A route that takes no body (cancel) says so: a body sent to it
 * changes nothing, so it does not make a retry another request; one that takes no Idempotency-Key
 * (a delete) says so too.
 */
export const Write = createParamDecorator((options: { takesBody?: boolean; keyed?: boolean } | undefined, context: ExecutionContext) => {
  const request = context.getArgByIndex<Request>(0);
  return new WriteRequest(request.requestId, options?.keyed === false ? undefined : idempotentRequest(request, options));
});
