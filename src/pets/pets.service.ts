import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { MAX_STORED_ID } from '../http/parse-id.pipe.js';
import type { ListPetsQuery } from './dto/list-pets.query.js';
import type { NewPetDto } from './dto/new-pet.dto.js';
import { PetNotFoundException } from './pet-not-found.exception.js';
import { Pet } from './pet.entity.js';

@Injectable()
export class PetsService {
  constructor(@InjectRepository(Pet) private readonly pets: Repository<Pet>) {}

  list({ limit, status }: ListPetsQuery): Promise<Pet[]> {
    return this.pets.find({
      where: status ? { status } : {},
      order: { id: 'ASC' },
      take: limit,
    });
  }

  create({ name, categoryId, status = 'available' }: NewPetDto): Promise<Pet> {
    return this.pets.save(this.pets.create({ name, categoryId, status }));
  }

  async get(id: bigint): Promise<Pet> {
    const pet = id <= MAX_STORED_ID ? await this.pets.findOneBy({ id: Number(id) }) : null;
    if (!pet) throw new PetNotFoundException(id);
    return pet;
  }
}
