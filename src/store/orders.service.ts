import { HttpStatus, Injectable } from '@nestjs/common';
import { requirePreconditions } from '../http/preconditions.js';
import { isForeignKeyViolation } from '../database/constraint-violations.js';
import { InsertedId, type Statement } from '../database/statement.js';
import { UnitOfWork, type WriteTransaction } from '../database/unit-of-work.js';
import { Outbox } from '../events/outbox.js';
import { Idempotency } from '../idempotency/idempotency.js';
import type { Environment } from '../environments/environment.js';
import type { WriteRequest } from '../idempotency/write-request.js';
import { readPage, type Page } from '../pagination/page.js';
import { ValidationFailedException } from '../errors/api-exception.js';
import { mergedMetadataProblem } from '../validation/metadata.js';
import { PetNotAvailableException } from '../pets/pet-conflicts.exceptions.js';
import { PetNotFoundException } from '../pets/pet-not-found.exception.js';
import { pairOf, PetsService } from '../pets/pets.service.js';
import type { Preconditions } from '../http/entity-tag.js';
import type { ListOrdersQuery } from './dto/list-orders.query.js';
import { ORDER } from './dto/order-fields.js';
import type { NewOrderDto } from './dto/new-order.dto.js';
import type { OrderPatchDto } from './dto/order-patch.dto.js';
import { OrderDto } from './dto/order.dto.js';
import { checkCancellable, checkOrderMove, checkOrderOpen } from './order-moves.js';
import { OrderNotFoundException } from './order-not-found.exception.js';
import type { OrderStatus } from './order-status.js';
import { OrdersRepository, type StoredOrder } from './orders.repository.js';

/**
 * Orders, and the pets they move: each write of an order and its pet's move, with their events, is
 * one write, decided on the pet and the order it holds (of many orders for one pet at once, exactly
 * one is placed).
 */
@Injectable()
export class OrdersService {
  constructor(
    private readonly orders: OrdersRepository,
    private readonly pets: PetsService,
    private readonly writes: UnitOfWork,
    private readonly idempotency: Idempotency,
    private readonly outbox: Outbox,
  ) {}

  async list(environment: Environment, query: ListOrdersQuery): Promise<Page<OrderDto>> {
    const { status } = query;
    const pair = pairOf(query.metadata);
    const filter = { status, metadata: pair && JSON.stringify(pair) };
    const page = await readPage('orders', query, filter, (afterId, limit) => this.orders.page(environment, status, pair, afterId, limit));
    return page.map(OrderDto.from);
  }

  /**
   * Places the order on an available pet, which it holds (pending) until it is delivered (sold) or
   * cancelled (available again); an order placed delivered sells the pet at once. With its
   * `order.placed` and `pet.updated` events.
   */
  async place(newOrder: NewOrderDto, write: WriteRequest): Promise<OrderDto> {
    const { petId, status = 'placed' } = newOrder;
    const { environment } = write;
    // Its id is the one the insert generates; complete exactly when delivered (NewOrderDto refuses any other complete).
    const stored = ORDER.createStored<StoredOrder>(newOrder, { id: 0, complete: status === 'delivered', livemode: environment.livemode });
    const order = OrderDto.from(stored);
    const id = new InsertedId('order');
    try {
      return await this.writes.write(
        async (transaction) => {
          // A pet of another environment is none: 404, as one that never existed.
          const pet = await this.pets.state(transaction, environment, petId);
          if (pet.pet.status !== 'available') throw new PetNotAvailableException(petId, pet.pet.status);
          const move = this.pets.moveForOrder(
            pet,
            status === 'delivered' ? 'sold' : 'pending',
            status === 'delivered' ? 'released' : id,
            write,
          );
          return {
            answer: order,
            answerId: id,
            statements: [...this.orders.insert(environment, stored, id), move.change],
            events: [this.outbox.recordCreated(environment, 'order.placed', order, id, write.cause), ...move.events],
          };
        },
        this.idempotency.of(write.idempotency, HttpStatus.CREATED),
      );
    } catch (error) {
      // The orders' foreign key to pets says the pet went after it was read: nothing was stored.
      throw isForeignKeyViolation(error) ? new PetNotFoundException(petId) : error;
    }
  }

  /**
   * Applies a Merge Patch to the order as it stands (its preconditions: only to the representation
   * named): placed to approved, approved to delivered, which sells the pet it holds and completes
   * the order; shipDate as given, while the order is open (a final one changes no more). With its
   * `order.updated` (and `pet.updated`) events. A patch that changes nothing holds nothing (UnitOfWork.change).
   */
  update(id: number, patch: OrderPatchDto, preconditions: Preconditions, write: WriteRequest): Promise<OrderDto> {
    return this.change('change', id, preconditions, write, (order) => {
      const after = ORDER.merge(order, patch);
      checkOrderMove(id, order.status, after.status);
      if (after.shipDate?.getTime() !== order.shipDate?.getTime()) checkOrderOpen(id, order.status, 'shipDate');
      // The integrator's own references, which a final order takes too: they are not its terms.
      const tooMany = mergedMetadataProblem(after.metadata);
      if (tooMany) throw new ValidationFailedException(`${tooMany}.`);
      return { ...after, complete: after.status === 'delivered' };
    });
  }

  /** Cancels a placed or approved order (its preconditions: only the representation named); the pet it holds is available again. */
  cancel(id: number, preconditions: Preconditions, write: WriteRequest): Promise<OrderDto> {
    return this.change('write', id, preconditions, write, (order) => {
      checkCancellable(id, order.status);
      return { ...order, status: 'cancelled' };
    });
  }

  async get(environment: Environment, id: number): Promise<OrderDto> {
    const order = await this.orders.get(environment, id);
    if (!order) throw new OrderNotFoundException(id);
    return OrderDto.from(order);
  }

  /**
   * The order as `decide` changes it, with the move of the pet it holds (sold when delivered,
   * available when cancelled) and their events, in one write, once per Idempotency-Key: as a
   * `change` (UnitOfWork.change), which looks first, when it may change nothing; a cancel, which
   * changes or is refused, does not pay that read.
   */
  private change(
    how: 'change' | 'write',
    id: number,
    preconditions: Preconditions,
    write: WriteRequest,
    decide: (order: StoredOrder) => StoredOrder,
  ): Promise<OrderDto> {
    return this.writes[how](
      async (transaction) => {
        const { environment } = write;
        const stored = await this.state(transaction, environment, id);
        const before = OrderDto.from(stored);
        requirePreconditions(preconditions, `order ${id}`, before);
        const order = decide(stored);
        const after = OrderDto.from(order);
        if (JSON.stringify(after) === JSON.stringify(before)) return { answer: before, statements: [] };
        const statements: Statement[] = this.orders.change(environment, stored, order);
        const events: Statement[] = [this.outbox.recordChanged(environment, 'order.updated', before, after, write.cause)];
        const petStatus = PET_AFTER[order.status];
        if (order.status !== stored.status && petStatus) {
          const pet = await this.pets.state(transaction, environment, order.petId);
          // An order placed before 1.4.0 may not hold its pet: it moves none.
          if (pet.heldByOrderId === id) {
            const move = this.pets.moveForOrder(pet, petStatus, 'released', write);
            statements.push(move.change);
            events.push(...move.events);
          }
        }
        return { answer: after, statements, events };
      },
      this.idempotency.of(write.idempotency, HttpStatus.OK),
    );
  }

  private async state(transaction: WriteTransaction, environment: Environment, id: number): Promise<StoredOrder> {
    const order = await this.orders.state(transaction, environment, id);
    if (!order) throw new OrderNotFoundException(id);
    return order;
  }
}

/** Where an order that reaches a status leaves the pet it held. */
const PET_AFTER: Partial<Record<OrderStatus, 'sold' | 'available'>> = { delivered: 'sold', cancelled: 'available' };
