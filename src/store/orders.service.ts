import { Injectable } from '@nestjs/common';
import { readPage, type Page } from '../pagination/page.js';
import { IdempotencyRepository, type IdempotentRequest } from '../idempotency/idempotency.repository.js';
import { PetNotFoundException } from '../pets/pet-not-found.exception.js';
import { isForeignKeyViolation } from '../database/constraint-violations.js';
import type { ListOrdersQuery } from './dto/list-orders.query.js';
import type { NewOrderDto } from './dto/new-order.dto.js';
import { OrderDto } from './dto/order.dto.js';
import { OrderNotFoundException } from './order-not-found.exception.js';
import { OrdersRepository } from './orders.repository.js';
import { Outbox } from '../events/outbox.js';

@Injectable()
export class OrdersService {
  constructor(
    private readonly orders: OrdersRepository,
    private readonly idempotency: IdempotencyRepository,
    private readonly outbox: Outbox,
  ) {}

  async list(query: ListOrdersQuery): Promise<Page<OrderDto>> {
    const { status } = query;
    const page = await readPage('orders', query, { status }, (afterId, limit) => this.orders.page(status, afterId, limit));
    return page.map(OrderDto.from);
  }

  /** Stores the order and its `order.placed` event in one transaction; the pet must exist. */
  async place(
    { petId, quantity, status = 'placed', shipDate, complete = false }: NewOrderDto,
    idempotency?: IdempotentRequest,
  ): Promise<OrderDto> {
    const stored = { petId, quantity, status, shipDate: shipDate ? new Date(shipDate) : null, complete };
    // Its id is the one the insert generates.
    const order = OrderDto.from({ id: 0, ...stored });
    try {
      const placed = await this.idempotency.createOnce(
        idempotency,
        order,
        [this.orders.insert(stored), this.outbox.recordCreated('order.placed', order)],
        { idFromInsert: true },
      );
      this.outbox.committed();
      return placed;
    } catch (error) {
      // The orders' foreign key to pets says the pet does not exist: nothing was stored.
      throw isForeignKeyViolation(error) ? new PetNotFoundException(petId) : error;
    }
  }

  async get(id: number): Promise<OrderDto> {
    const order = await this.orders.get(id);
    if (!order) throw new OrderNotFoundException(id);
    return OrderDto.from(order);
  }
}
