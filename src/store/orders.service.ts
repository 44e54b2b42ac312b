import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { LeanSelect } from '../database/lean-select.js';
import { findPage, type Page } from '../http/pagination/page.js';
import { MAX_STORED_ID } from '../http/parse-id.pipe.js';
import { createOnce, type IdempotencyClaim } from '../idempotency/idempotency.store.js';
import { PetNotFoundException } from '../pets/pet-not-found.exception.js';
import { Pet } from '../pets/pet.entity.js';
import type { ListOrdersQuery } from './dto/list-orders.query.js';
import type { NewOrderDto } from './dto/new-order.dto.js';
import { OrderDto } from './dto/order.dto.js';
import { OrderNotFoundException } from './order-not-found.exception.js';
import { Order } from './order.entity.js';

@Injectable()
export class OrdersService {
  private readonly rows: LeanSelect<Order>;

  constructor(@InjectRepository(Order) private readonly orders: Repository<Order>) {
    this.rows = new LeanSelect(orders);
  }

  async list(query: ListOrdersQuery): Promise<Page<OrderDto>> {
    const page = await findPage(this.rows, query, { status: query.status });
    return { ...page, items: page.items.map(OrderDto.from) };
  }

  /** Places an order for an existing pet; the pet itself is left as it is (the spec has no transition). */
  place({ petId, quantity, status = 'placed', shipDate, complete = false }: NewOrderDto, claim?: IdempotencyClaim): Promise<OrderDto> {
    return createOnce(this.orders.manager, claim, async (manager) => {
      if (!(await manager.existsBy(Pet, { id: petId }))) throw new PetNotFoundException(petId);
      const order = manager.create(Order, { petId, quantity, status, shipDate: shipDate ? new Date(shipDate) : null, complete });
      await manager.insert(Order, order);
      return OrderDto.from(order);
    });
  }

  async get(id: bigint): Promise<OrderDto> {
    const [order] = id <= MAX_STORED_ID ? await this.rows.find({ equal: { id: Number(id) }, limit: 1 }) : [];
    if (!order) throw new OrderNotFoundException(id);
    return OrderDto.from(order);
  }
}
