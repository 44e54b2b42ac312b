import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { readPage, type Page } from '../pagination/page.js';
import { createOnce, type IdempotencyClaim } from '../idempotency/idempotency.repository.js';
import type { ListPetsQuery } from './dto/list-pets.query.js';
import type { NewPetDto } from './dto/new-pet.dto.js';
import { PetNotFoundException } from './pet-not-found.exception.js';
import { PET_STATUSES, type PetStatus } from './pet-status.js';
import { PetsRepository, type StoredPet } from './pets.repository.js';

@Injectable()
export class PetsService {
  constructor(
    private readonly pets: PetsRepository,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  list(query: ListPetsQuery): Promise<Page<StoredPet>> {
    const { status } = query;
    return readPage('pets', query, { status }, (afterId, limit) => this.pets.page(status, afterId, limit));
  }

  create({ name, categoryId, status = 'available' }: NewPetDto, claim?: IdempotencyClaim): Promise<StoredPet> {
    return createOnce(this.dataSource.manager, claim, (manager) => this.pets.insert({ name, categoryId, status }, manager));
  }

  /** How many pets have each status, every status present. */
  async countByStatus(): Promise<Record<PetStatus, number>> {
    const counts = Object.fromEntries(PET_STATUSES.map((status) => [status, 0])) as Record<PetStatus, number>;
    for (const { status, count } of await this.pets.countByStatus()) if (status in counts) counts[status as PetStatus] = count;
    return counts;
  }

  async get(id: number): Promise<StoredPet> {
    const pet = await this.pets.get(id);
    if (!pet) throw new PetNotFoundException(id);
    return pet;
  }
}
