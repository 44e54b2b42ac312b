import { HttpStatus } from '@nestjs/common';
import { ApiException } from '../errors/api-exception.js';

/** No request of this key has the id: another key's are not its to see, so they are not found either. */
export class RequestNotFoundException extends ApiException {
  constructor(id: string) {
    super(HttpStatus.NOT_FOUND, 'REQUEST_NOT_FOUND', `No request of this API key has id ${JSON.stringify(id.slice(0, 128))}.`);
  }
}

/** The operator turned the log off (REQUEST_LOG=false): nothing is kept, so nothing can be listed or found. */
export class RequestLogDisabledException extends ApiException {
  constructor() {
    super(HttpStatus.NOT_FOUND, 'REQUEST_LOG_DISABLED', 'This service keeps no request log: its operator turned it off.');
  }
}
