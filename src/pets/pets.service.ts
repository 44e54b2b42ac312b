import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { LeanSelect } from '../database/lean-select.js';
import { findPage, type Page } from '../http/pagination/page.js';
import { MAX_STORED_ID } from '../http/parse-id.pipe.js';
import { createOnce, type IdempotencyClaim } from '../idempotency/idempotency.store.js';
import type { ListPetsQuery } from './dto/list-pets.query.js';
import type { NewPetDto } from './dto/new-pet.dto.js';
import { PetNotFoundException } from './pet-not-found.exception.js';
import { PET_STATUSES, type PetStatus } from './pet-status.js';
import { Pet } from './pet.entity.js';

@Injectable()
export class PetsService {
  private readonly rows: LeanSelect<Pet>;

  constructor(@InjectRepository(Pet) private readonly pets: Repository<Pet>) {
    this.rows = new LeanSelect(pets);
  }

  list(query: ListPetsQuery): Promise<Page<Pet>> {
    return findPage(this.rows, query, { status: query.status });
  }

  create({ name, categoryId, status = 'available' }: NewPetDto, claim?: IdempotencyClaim): Promise<Pet> {
    return createOnce(this.pets.manager, claim, async (manager) => {
      const pet = manager.create(Pet, { name, categoryId, status });
      // insert, not save: one statement, where save adds a transaction and a lookup of its own.
      await manager.insert(Pet, pet);
      return pet;
    });
  }

  /** How many pets have each status, every status present: one aggregate query over the (status, id) index. */
  async countByStatus(): Promise<Record<PetStatus, number>> {
    const rows = await this.pets
      .createQueryBuilder('pet')
      .select('pet.status', 'status')
      .addSelect('COUNT(*)', 'count')
      .groupBy('pet.status')
      .getRawMany<{ status: PetStatus; count: number | string }>();
    const counts = Object.fromEntries(PET_STATUSES.map((status) => [status, 0])) as Record<PetStatus, number>;
    for (const { status, count } of rows) if (status in counts) counts[status] = Number(count);
    return counts;
  }

  async get(id: bigint): Promise<Pet> {
    const [pet] = id <= MAX_STORED_ID ? await this.rows.find({ equal: { id: Number(id) }, limit: 1 }) : [];
    if (!pet) throw new PetNotFoundException(id);
    return pet;
  }
}
