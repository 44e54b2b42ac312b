import { HttpStatus, Injectable } from '@nestjs/common';
import { requirePreconditions } from '../conditional/if-match.js';
import { isForeignKeyViolation } from '../database/constraint-violations.js';
import type { Statement } from '../database/statement.js';
import { Outbox } from '../events/outbox.js';
import { CREATED_STATUS, IdempotencyRepository, type IdempotentRequest } from '../idempotency/idempotency.repository.js';
import { readPage, type Page } from '../pagination/page.js';
import { PetNotAvailableException } from '../pets/pet-conflicts.exceptions.js';
import { PetNotFoundException } from '../pets/pet-not-found.exception.js';
import { PetsService } from '../pets/pets.service.js';
import type { Preconditions } from '../server/entity-tag.js';
import type { ListOrdersQuery } from './dto/list-orders.query.js';
import type { NewOrderDto } from './dto/new-order.dto.js';
import type { OrderPatchDto } from './dto/order-patch.dto.js';
import { OrderDto } from './dto/order.dto.js';
import { checkCancellable, checkOrderMove, checkOrderOpen } from './order-moves.js';
import { OrderNotFoundException } from './order-not-found.exception.js';
import type { OrderStatus } from './order-status.js';
import { type OrderState, OrdersRepository, type StoredOrder } from './orders.repository.js';

/**
 * Orders, and the pets they move: each write of an order and its pet's move, with their events, is
 * one transaction, made only to the rows as read (a race decides again: exactly one of many orders
 * for a pet is placed).
 */
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

  /**
   * Places the order on an available pet, which it holds (pending) until it is delivered (sold) or
   * cancelled (available again); an order placed delivered sells the pet at once. With its
   * `order.placed` and `pet.updated` events, in one transaction.
   */
  async place({ petId, quantity, status = 'placed', shipDate }: NewOrderDto, idempotency?: IdempotentRequest): Promise<OrderDto> {
    const stored = {
      petId,
      quantity,
      status,
      shipDate: shipDate ? new Date(shipDate) : null,
      // Complete exactly when delivered (NewOrderDto refuses any other complete).
      complete: status === 'delivered',
    };
    // Its id is the one the insert generates.
    const order = OrderDto.from({ id: 0, ...stored });
    try {
      const placed = await this.idempotency.changeOnce(idempotency, CREATED_STATUS, async () => {
        const pet = await this.pets.state(petId);
        if (pet.pet.status !== 'available') throw new PetNotAvailableException(petId, pet.pet.status);
        const move =
          status === 'delivered'
            ? this.pets.moveForOrder(pet, 'sold', 'release')
            : this.pets.moveForOrder(pet, 'pending', 'hold the new order');
        // The pet's hold, and then the order's event, take the order's id from the insert before them.
        const statements = [this.orders.insert(stored), move.change, this.outbox.recordCreated('order.placed', order), ...move.events];
        return { answer: order, statements, idFromInsert: true };
      });
      this.outbox.committed();
      return placed;
    } catch (error) {
      // The orders' foreign key to pets says the pet went after it was read: nothing was stored.
      throw isForeignKeyViolation(error) ? new PetNotFoundException(petId) : error;
    }
  }

  /**
   * Applies a Merge Patch to the order as it stands (If-Match: only to the representation named):
   * placed to approved, approved to delivered, which sells the pet it holds and completes the
   * order; shipDate as given, while the order is open (a final one changes no more). With its
   * `order.updated` (and `pet.updated`) events, in one transaction.
   */
  async update(id: number, patch: OrderPatchDto, preconditions: Preconditions, idempotency?: IdempotentRequest): Promise<OrderDto> {
    return this.change(id, preconditions, idempotency, (order) => {
      const status = patch.status ?? order.status;
      checkOrderMove(id, order.status, status);
      const shipDate = patch.shipDate === undefined ? order.shipDate : new Date(patch.shipDate);
      if (shipDate?.getTime() !== order.shipDate?.getTime()) checkOrderOpen(id, order.status, 'shipDate');
      return { ...order, status, shipDate, complete: status === 'delivered' };
    });
  }

  /** Cancels a placed or approved order (If-Match: only the representation named); the pet it holds is available again. */
  async cancel(id: number, preconditions: Preconditions, idempotency?: IdempotentRequest): Promise<OrderDto> {
    return this.change(id, preconditions, idempotency, (order) => {
      checkCancellable(id, order.status);
      return { ...order, status: 'cancelled' };
    });
  }

  async get(id: number): Promise<OrderDto> {
    const order = await this.orders.get(id);
    if (!order) throw new OrderNotFoundException(id);
    return OrderDto.from(order);
  }

  /**
   * The order as `decide` changes it, with the move of the pet it holds (sold when delivered,
   * available when cancelled) and their events, in one transaction, once per Idempotency-Key.
   */
  private async change(
    id: number,
    preconditions: Preconditions,
    idempotency: IdempotentRequest | undefined,
    decide: (order: StoredOrder) => StoredOrder,
  ): Promise<OrderDto> {
    const changed = await this.idempotency.changeOnce(idempotency, HttpStatus.OK, async () => {
      const state = await this.state(id);
      const before = OrderDto.from(state.order);
      requirePreconditions(preconditions, `order ${id}`, before);
      const order = decide(state.order);
      const after = OrderDto.from(order);
      if (JSON.stringify(after) === JSON.stringify(before)) return { answer: before, statements: [] };
      const statements: Statement[] = [this.orders.change(state, order), this.outbox.recordChanged('order.updated', before, after)];
      const petStatus = PET_AFTER[order.status];
      if (order.status !== state.order.status && petStatus) {
        const pet = await this.pets.state(order.petId);
        // An order placed before 1.4.0 may not hold its pet: it moves none.
        if (pet.heldByOrderId === id) {
          const move = this.pets.moveForOrder(pet, petStatus, 'release');
          statements.push(move.change, ...move.events);
        }
      }
      return { answer: after, statements };
    });
    this.outbox.committed();
    return changed;
  }

  private async state(id: number): Promise<OrderState> {
    const state = await this.orders.state(id);
    if (!state) throw new OrderNotFoundException(id);
    return state;
  }
}

/** Where an order that reaches a status leaves the pet it held. */
const PET_AFTER: Partial<Record<OrderStatus, 'sold' | 'available'>> = { delivered: 'sold', cancelled: 'available' };
