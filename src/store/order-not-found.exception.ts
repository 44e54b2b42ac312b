import { HttpStatus } from '@nestjs/common';
import { ApiException } from '../errors/api-exception.js';

export class OrderNotFoundException extends ApiException {
  constructor(orderId: number) {
    super(HttpStatus.NOT_FOUND, 'ORDER_NOT_FOUND', `No order has id ${orderId}.`);
  }
}
