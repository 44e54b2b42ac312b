import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { findPage, type Page } from '../http/pagination/page.js';
import { MAX_STORED_ID } from '../http/parse-id.pipe.js';
import { createOnce, type IdempotencyClaim } from '../idempotency/idempotency.store.js';
import type { ListPetsQuery } from './dto/list-pets.query.js';
import type { NewPetDto } from './dto/new-pet.dto.js';
import { PetNotFoundException } from './pet-not-found.exception.js';
import { Pet } from './pet.entity.js';

@Injectable()
export class PetsService {
  constructor(@InjectRepository(Pet) private readonly pets: Repository<Pet>) {}

  list(query: ListPetsQuery): Promise<Page<Pet>> {
    return findPage(this.pets, query, { status: query.status });
  }

  create({ name, categoryId, status = 'available' }: NewPetDto, claim?: IdempotencyClaim): Promise<Pet> {
    return createOnce(this.pets.manager, claim, (manager) => manager.save(manager.create(Pet, { name, categoryId, status })));
  }

  async get(id: bigint): Promise<Pet> {
    const pet = id <= MAX_STORED_ID ? await this.pets.findOneBy({ id: Number(id) }) : null;
    if (!pet) throw new PetNotFoundException(id);
    return pet;
  }
}
