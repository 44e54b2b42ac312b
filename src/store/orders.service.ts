import { Injectable } from '@nestjs/common';
import { readPage, type Page } from '../pagination/page.js';
import { IdempotencyRepository, type IdempotentRequest } from '../idempotency/idempotency.repository.js';
import { PetNotFoundException } from '../pets/pet-not-found.exception.js';
import { PetsService } from '../pets/pets.service.js';
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
    private readonly pets: PetsService,
    private readonly idempotency: IdempotencyRepository,
    private readonly outbox: Outbox,
  ) {}

  async list(query: ListOrdersQuery): Promise<Page<OrderDto>> {
    const { status } = query;
    const page = await readPage('orders', query, { status }, (afterId, limit) => this.orders.page(status, afterId, limit));
    return page.map(OrderDto.from);
  }

  /** Stores the order and its `order.placed` event in one transaction. */
  async place(
    { petId, quantity, status = 'placed', shipDate, complete = false }: NewOrderDto,
    idempotency?: IdempotentRequest,
  ): Promise<OrderDto> {
    const placed = await this.idempotency.createOnce(idempotency, async (manager) => {
      if (!(await this.pets.exists(petId, manager))) throw new PetNotFoundException(petId);
      const order = OrderDto.from(
        await this.orders.insert({ petId, quantity, status, shipDate: shipDate ? new Date(shipDate) : null, complete }, manager),
      );
      await this.outbox.record(manager, 'order.placed', order);
      return order;
    });
    this.outbox.committed();
    return placed;
  }

  async get(id: number): Promise<OrderDto> {
    const order = await this.orders.get(id);
    if (!order) throw new OrderNotFoundException(id);
    return OrderDto.from(order);
  }
}
