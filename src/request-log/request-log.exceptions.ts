import { HttpStatus } from '@nestjs/common';
import { ApiException } from '../errors/api-exception.js';

/** No request of this key has the id: another key's are not its to see, so they are not found either. */
export class RequestNotFoundException extends ApiException {
  constructor(id: string) {
    super(HttpStatus.NOT_FOUND, 'REQUEST_NOT_FOUND', `No request of this API key has id ${JSON.stringify(id.slice(0, 128))}.`);
  }
}
