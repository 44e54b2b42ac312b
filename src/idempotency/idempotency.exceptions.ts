import { HttpStatus } from '@nestjs/common';
import { ApiException } from '../errors/api-exception.js';

/** `retryAfterSeconds`: when the first request will have been answered, or its claim may be taken over. */
export class IdempotencyKeyInUseException extends ApiException {
  constructor(retryAfterSeconds: number) {
    super(
      HttpStatus.CONFLICT,
      'IDEMPOTENCY_KEY_IN_USE',
      `A request with this Idempotency-Key is still being processed; retry in ${retryAfterSeconds} s.`,
      { 'Retry-After': String(retryAfterSeconds) },
    );
  }
}

export class IdempotencyKeyReusedException extends ApiException {
  constructor() {
    super(
      HttpStatus.UNPROCESSABLE_ENTITY,
      'IDEMPOTENCY_KEY_REUSED',
      'This Idempotency-Key was used with a different request; use a new key for a new request.',
    );
  }
}
