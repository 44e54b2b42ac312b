import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import type { Environment } from '../environments/environment.js';
import type { EventCause } from '../events/event-types.js';
import type { IdempotentRequest } from './idempotency.js';
import { idempotentRequest } from './idempotency-key.js';

/**
 * The request that asks for a write, as its service needs it: its id, which the events it records
 * name (and the request log files it under), its Idempotency-Key, when it sent one (the
 * Idempotency participant of its UnitOfWork), and the environment it writes in (its key's).
 */
export class WriteRequest {
  constructor(
    readonly id: string,
    readonly idempotency: IdempotentRequest | undefined,
    /** Where everything the write reads and writes is: its key's environment (ApiKeyPrincipal), never the client's text. */
    readonly environment: Environment,
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
  if (!request.apiKey) throw new Error('a keyed route was reached without a key');
  return new WriteRequest(
    request.requestId,
    options?.keyed === false ? undefined : idempotentRequest(request, options),
    request.apiKey.environment,
  );
});
