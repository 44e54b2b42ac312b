import { ApiSchema } from '@nestjs/swagger';
import { ORDER } from './order-fields.js';

/** What placing an order takes (ORDER): status left out means placed; an explicit null is no value. */
@ApiSchema({ name: 'NewOrder', description: 'An order to place for an animal.' })
export class NewOrderDto extends ORDER.createType() {}
