import { HttpStatus } from '@nestjs/common';
import { ApiException } from '../errors/api-exception.js';

/** 429 with Retry-After: over the per-key rate, or (with its own words) too many failed authentications. */
export class RateLimitedException extends ApiException {
  constructor(retryAfterSeconds: number, what = 'Too many requests for this API key') {
    super(HttpStatus.TOO_MANY_REQUESTS, 'RATE_LIMITED', `${what}; retry in ${retryAfterSeconds} s.`, {
      'Retry-After': String(retryAfterSeconds),
    });
  }
}
