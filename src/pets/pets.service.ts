import { HttpStatus, Injectable } from '@nestjs/common';
import { requirePreconditions } from '../http/preconditions.js';
import { isReferencedRow } from '../database/constraint-violations.js';
import { InsertedId, type Statement } from '../database/statement.js';
import { UnitOfWork, type WriteTransaction } from '../database/unit-of-work.js';
import { ValidationFailedException } from '../errors/api-exception.js';
import { changedAttributes, Outbox } from '../events/outbox.js';
import { Idempotency } from '../idempotency/idempotency.js';
import type { Environment } from '../environments/environment.js';
import type { WriteRequest } from '../idempotency/write-request.js';
import { readPage, type Page } from '../pagination/page.js';
import { type Metadata, mergedMetadataProblem } from '../validation/metadata.js';
import type { Preconditions } from '../http/entity-tag.js';
import type { ListPetsQuery } from './dto/list-pets.query.js';
import { PET } from './dto/pet-fields.js';
import type { NewPetDto } from './dto/new-pet.dto.js';
import type { PetPatchDto } from './dto/pet-patch.dto.js';
import type { PetDto } from './dto/pet.dto.js';
import { PetHasOpenOrderException, PetHasOrdersException } from './pet-conflicts.exceptions.js';
import { checkPetMove } from './pet-moves.js';
import { PetNotFoundException } from './pet-not-found.exception.js';
import { PET_STATUSES, type PetStatus } from './pet-status.js';
import { PetsRepository, type PetState } from './pets.repository.js';

/**
 * A pet's move made by an order, for the order's write: the pet after, the statement that moves
 * it, and its `pet.updated` event (none when its status stays).
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
    private readonly writes: UnitOfWork,
    private readonly idempotency: Idempotency,
    private readonly outbox: Outbox,
  ) {}

  list(environment: Environment, query: ListPetsQuery): Promise<Page<PetDto>> {
    const { status } = query;
    const pair = pairOf(query.metadata);
    const filter = { status, metadata: pair && JSON.stringify(pair) };
    return readPage('pets', query, filter, (afterId, limit) => this.pets.page(environment, status, pair, afterId, limit));
  }

  /** Stores the pet, in the request's environment, and its `pet.created` event; its id is the one the insert generates. */
  create(newPet: NewPetDto, write: WriteRequest): Promise<PetDto> {
    const { environment } = write;
    // Its id is the one the insert generates.
    const pet: PetDto = PET.create(newPet, { id: 0, livemode: environment.livemode });
    const id = new InsertedId('pet');
    return this.writes.write(
      async () => ({
        answer: pet,
        answerId: id,
        statements: this.pets.insert(environment, pet, id),
        events: [this.outbox.recordCreated(environment, 'pet.created', pet, id, write.cause)],
      }),
      this.idempotency.of(write.idempotency, HttpStatus.CREATED),
    );
  }

  /**
   * Applies a Merge Patch to the pet as it stands (its preconditions: only to the representation
   * named), with its `pet.updated` event. A status move must be one the pet allows, and not of a pet
   * an open order holds; a patch that changes nothing writes nothing, and holds nothing (UnitOfWork.change).
   */
  update(id: number, patch: PetPatchDto, preconditions: Preconditions, write: WriteRequest): Promise<PetDto> {
    return this.writes.change(
      async (transaction) => {
        const { pet, heldByOrderId } = await this.state(transaction, write.environment, id);
        requirePreconditions(preconditions, `pet ${id}`, pet);
        const after = PET.merge(pet, patch);
        const tooMany = mergedMetadataProblem(after.metadata);
        if (tooMany) throw new ValidationFailedException(`${tooMany}.`);
        if (after.status !== pet.status) {
          if (heldByOrderId !== null) throw new PetHasOpenOrderException(id, heldByOrderId);
          checkPetMove(id, pet.status, after.status);
        }
        if (!differs(pet, after)) return { answer: pet, statements: [] };
        return {
          answer: after,
          statements: this.pets.change(write.environment, pet, after),
          events: [this.outbox.recordChanged(write.environment, 'pet.updated', pet, after, write.cause)],
        };
      },
      this.idempotency.of(write.idempotency, HttpStatus.OK),
    );
  }

  /** Deletes the pet (its preconditions: only the representation named), with its `pet.deleted` event; a pet orders name is kept (409). */
  async delete(id: number, preconditions: Preconditions, write: WriteRequest): Promise<void> {
    try {
      await this.writes.write(async (transaction) => {
        const { environment } = write;
        const { pet } = await this.state(transaction, environment, id);
        requirePreconditions(preconditions, `pet ${id}`, pet);
        return {
          answer: pet,
          statements: [this.pets.remove(environment, id)],
          events: [this.outbox.recordDeleted(environment, 'pet.deleted', pet, write.cause)],
        };
      });
    } catch (error) {
      // The orders' foreign key: an order names the pet.
      throw isReferencedRow(error) ? new PetHasOrdersException(id) : error;
    }
  }

  /** How many of the environment's pets have each status, every status present. */
  async countByStatus(environment: Environment): Promise<Record<PetStatus, number>> {
    const counts = Object.fromEntries(PET_STATUSES.map((status) => [status, 0])) as Record<PetStatus, number>;
    for (const { status, count } of await this.pets.countByStatus(environment)) if (status in counts) counts[status as PetStatus] = count;
    return counts;
  }

  async get(environment: Environment, id: number): Promise<PetDto> {
    const pet = await this.pets.get(environment, id);
    if (!pet) throw new PetNotFoundException(id);
    return pet;
  }

  /**
   * The environment's pet as a write decides on it, held by that write's transaction (when it holds
   * what it reads); 404 when there is none, or it is another environment's.
   */
  async state(transaction: WriteTransaction, environment: Environment, id: number): Promise<PetState> {
    const state = await this.pets.state(transaction, environment, id);
    if (!state) throw new PetNotFoundException(id);
    return state;
  }

  /**
   * The pet, as read, moved to `status` by an order: held by the order whose insert the write names
   * (`heldBy`), or released (by none); with its `pet.updated` event, caused by the order's `write`. No event when its status stays.
   */
  moveForOrder({ pet }: PetState, status: PetStatus, heldBy: InsertedId | 'released', write: WriteRequest): PetMove {
    const { environment } = write;
    const after: PetDto = { ...pet, status };
    return {
      pet: after,
      change: heldBy === 'released' ? this.pets.release(environment, pet.id, status) : this.pets.hold(environment, pet.id, status, heldBy),
      events: differs(pet, after) ? [this.outbox.recordChanged(environment, 'pet.updated', pet, after, write.cause)] : [],
    };
  }
}

/** Whether any field of the pet changed, compared by value. */
function differs(before: PetDto, after: PetDto): boolean {
  return Object.keys(changedAttributes(before, after)).length > 0;
}

/** The one pair a listing's `metadata[key]=value` filter names (the query DTO validated it), or none. */
export function pairOf(metadata: Metadata | undefined): [string, string] | undefined {
  const [pair] = Object.entries(metadata ?? {});
  return pair;
}
