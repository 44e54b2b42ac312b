import { HttpStatus } from '@nestjs/common';
import { ApiException } from '../errors/api-exception.js';

const REALM = 'Bearer realm="petstore"';

export class ApiKeyMissingException extends ApiException {
  constructor() {
    super(HttpStatus.UNAUTHORIZED, 'API_KEY_MISSING', 'An API key is required: send it as Authorization: Bearer <API_KEY>.', {
      'WWW-Authenticate': REALM,
    });
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
