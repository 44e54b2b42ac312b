import { Injectable } from '@nestjs/common';
import { Outbox } from '../events/outbox.js';
import { readPage, type Page } from '../pagination/page.js';
import { IdempotencyRepository, type IdempotentRequest } from '../idempotency/idempotency.repository.js';
import type { ListPetsQuery } from './dto/list-pets.query.js';
import type { NewPetDto } from './dto/new-pet.dto.js';
import type { PetDto } from './dto/pet.dto.js';
import { PetNotFoundException } from './pet-not-found.exception.js';
import { PET_STATUSES, type PetStatus } from './pet-status.js';
import { PetsRepository } from './pets.repository.js';

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
}
