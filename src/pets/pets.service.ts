import { HttpStatus, Injectable } from '@nestjs/common';
import { requirePreconditions } from '../conditional/if-match.js';
import { isReferencedRow } from '../database/constraint-violations.js';
import type { Statement } from '../database/statement.js';
import { Outbox } from '../events/outbox.js';
import { readPage, type Page } from '../pagination/page.js';
import { IdempotencyRepository, type IdempotentRequest } from '../idempotency/idempotency.repository.js';
import type { Preconditions } from '../server/entity-tag.js';
import type { ListPetsQuery } from './dto/list-pets.query.js';
import type { NewPetDto } from './dto/new-pet.dto.js';
import type { PetPatchDto } from './dto/pet-patch.dto.js';
import type { PetDto } from './dto/pet.dto.js';
import { PetHasOpenOrderException, PetHasOrdersException } from './pet-conflicts.exceptions.js';
import { checkPetMove } from './pet-moves.js';
import { PetNotFoundException } from './pet-not-found.exception.js';
import { PET_STATUSES, type PetStatus } from './pet-status.js';
import { PetsRepository, type PetState } from './pets.repository.js';

/**
 * A pet's move made by an order, for the order's transaction: the pet after, the statement that
 * moves it, and its `pet.updated` event (none when its status stays).
 */
export interface PetMove {
  readonly pet: PetDto;
  readonly change: Statement;
  readonly events: readonly Statement[];
}

@Injectable()
export class PetsService {
  constructor(
    private readonly pets: PetsRepository,
    private readonly idempotency: IdempotencyRepository,
    private readonly outbox: Outbox,
  ) {}

  list(query: ListPetsQuery): Promise<Page<PetDto>> {
    const { status } = query;
    return readPage('pets', query, { status }, (afterId, limit) => this.pets.page(status, afterId, limit));
  }

  /** Stores the pet and its `pet.created` event in one transaction; its id is the one the insert generates. */
  async create({ name, categoryId, status = 'available' }: NewPetDto, idempotency?: IdempotentRequest): Promise<PetDto> {
    const pet: PetDto = { id: 0, name, categoryId, status };
    const created = await this.idempotency.createOnce(
      idempotency,
      pet,
      [this.pets.insert(pet), this.outbox.recordCreated('pet.created', pet)],
      { idFromInsert: true },
    );
    this.outbox.committed();
    return created;
  }

  /**
   * Applies a Merge Patch to the pet as it stands (If-Match: only to the representation named), with
   * its `pet.updated` event, in one transaction. A status move must be one the pet allows, and not
   * of a pet an open order holds; a patch that changes nothing writes nothing.
   */
  async update(id: number, patch: PetPatchDto, preconditions: Preconditions, idempotency?: IdempotentRequest): Promise<PetDto> {
    const updated = await this.idempotency.changeOnce(idempotency, HttpStatus.OK, async () => {
      const state = await this.state(id);
      requirePreconditions(preconditions, `pet ${id}`, state.pet);
      const after = merged(state.pet, patch);
      if (after.status !== state.pet.status) {
        if (state.heldByOrderId !== null) throw new PetHasOpenOrderException(id, state.heldByOrderId);
        checkPetMove(id, state.pet.status, after.status);
      }
      if (!differs(state.pet, after)) return { answer: state.pet, statements: [] };
      return { answer: after, statements: [this.pets.change(state, after), this.outbox.recordChanged('pet.updated', state.pet, after)] };
    });
    this.outbox.committed();
    return updated;
  }

  /** Deletes the pet (If-Match: only the representation named), with its `pet.deleted` event; a pet orders name is kept (409). */
  async delete(id: number, preconditions: Preconditions): Promise<void> {
    try {
      await this.idempotency.changeOnce(undefined, HttpStatus.NO_CONTENT, async () => {
        const state = await this.state(id);
        requirePreconditions(preconditions, `pet ${id}`, state.pet);
        return { answer: state.pet, statements: [this.pets.remove(state), this.outbox.recordDeleted('pet.deleted', state.pet)] };
      });
    } catch (error) {
      // The orders' foreign key: an order names the pet.
      throw isReferencedRow(error) ? new PetHasOrdersException(id) : error;
    }
    this.outbox.committed();
  }

  /** How many pets have each status, every status present. */
  async countByStatus(): Promise<Record<PetStatus, number>> {
    const counts = Object.fromEntries(PET_STATUSES.map((status) => [status, 0])) as Record<PetStatus, number>;
    for (const { status, count } of await this.pets.countByStatus()) if (status in counts) counts[status as PetStatus] = count;
    return counts;
  }

  async get(id: number): Promise<PetDto> {
    const pet = await this.pets.get(id);
    if (!pet) throw new PetNotFoundException(id);
    return pet;
  }

  /** The pet as an order's change reads it; 404 when there is none. */
  async state(id: number): Promise<PetState> {
    const state = await this.pets.state(id);
    if (!state) throw new PetNotFoundException(id);
    return state;
  }

  /**
   * The pet, as read, moved to `status` by an order: held by the order the transaction's insert
   * made (`hold`), or by none; with its `pet.updated` event. Nothing when it stands there already.
   */
  moveForOrder(state: PetState, status: PetStatus, hold: 'hold the new order' | 'release'): PetMove {
    const after: PetDto = { ...state.pet, status };
    return {
      pet: after,
      change: hold === 'release' ? this.pets.release(state, status) : this.pets.hold(state, status),
      events: differs(state.pet, after) ? [this.outbox.recordChanged('pet.updated', state.pet, after)] : [],
    };
  }
}

/** The pet with the patch's fields over its own (a field the patch leaves out stays). */
function merged(pet: PetDto, { name, categoryId, status }: PetPatchDto): PetDto {
  return { id: pet.id, name: name ?? pet.name, categoryId: categoryId ?? pet.categoryId, status: status ?? pet.status };
}

function differs(before: PetDto, after: PetDto): boolean {
  return before.name !== after.name || before.categoryId !== after.categoryId || before.status !== after.status;
}
