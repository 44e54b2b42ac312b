import { HttpStatus } from '@nestjs/common';
import { ApiException } from '../errors/api-exception.js';

export class IdempotencyKeyInUseException extends ApiException {
  constructor() {
    super(
      HttpStatus.CONFLICT,
      'IDEMPOTENCY_KEY_IN_USE',
      'A request with this Idempotency-Key is still being processed; retry in a moment.',
      { 'Retry-After': '1' },
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
