import { HttpStatus } from '@nestjs/common';
import { ApiException } from '../http/api-exception.js';

const REALM = 'Bearer realm="petstore"';

export class ApiKeyMissingException extends ApiException {
  constructor() {
    super(
      HttpStatus.UNAUTHORIZED,
      'API_KEY_MISSING',
      'An API key is required: send it as Authorization: Bearer <API_KEY>.',
      { 'WWW-Authenticate': REALM },
    );
  }
}

/** One answer for unknown and revoked keys alike, so the answer reveals nothing about a key. */
export class ApiKeyInvalidException extends ApiException {
  constructor() {
    super(HttpStatus.UNAUTHORIZED, 'API_KEY_INVALID', 'The API key is not valid.', {
      'WWW-Authenticate': `${REALM}, error="invalid_token"`,
    });
  }
}

/** An address that failed authentication too often: slowed down, whatever key it sends next. */
export class AuthenticationFailuresLimitedException extends ApiException {
  constructor(retryAfterSeconds: number) {
    super(
      HttpStatus.TOO_MANY_REQUESTS,
      'RATE_LIMITED',
      `Too many failed authentications from this address; retry in ${retryAfterSeconds} s.`,
      { 'Retry-After': String(retryAfterSeconds) },
    );
  }
}
