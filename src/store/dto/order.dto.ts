import { ApiSchema } from '@nestjs/swagger';
import type { StoredOrder } from '../orders.repository.js';
import { ORDER } from './order-fields.js';

@ApiSchema({ name: 'Order', description: 'An order for an animal.' })
export class OrderDto extends ORDER.answerType() {
  /** The answer's shape (ORDER): shipDate as an RFC 3339 string in UTC, left out when there is none. */
  static from(this: void, order: StoredOrder): OrderDto {
    return ORDER.answer(order);
  }
}
