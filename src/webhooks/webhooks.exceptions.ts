import { HttpStatus } from '@nestjs/common';
import { ApiException } from '../errors/api-exception.js';

export class WebhookEndpointNotFoundException extends ApiException {
  constructor(id: string) {
    super(HttpStatus.NOT_FOUND, 'WEBHOOK_ENDPOINT_NOT_FOUND', `No webhook endpoint has id ${JSON.stringify(id.slice(0, 64))}.`);
  }
}

export class EventNotFoundException extends ApiException {
  constructor(id: string) {
    super(HttpStatus.NOT_FOUND, 'EVENT_NOT_FOUND', `No event has id ${JSON.stringify(id.slice(0, 64))}.`);
  }
}
