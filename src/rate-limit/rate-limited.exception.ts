import { HttpStatus } from '@nestjs/common';
import { ApiException } from '../http/api-exception.js';

export class RateLimitedException extends ApiException {
  constructor(retryAfterSeconds: number) {
    super(
      HttpStatus.TOO_MANY_REQUESTS,
      'RATE_LIMITED',
      `Too many requests for this API key; retry in ${retryAfterSeconds} s.`,
      { 'Retry-After': String(retryAfterSeconds) },
    );
  }
}
