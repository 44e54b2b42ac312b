import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { EventsModule } from '../events/events.module.js';
import { IdempotencyModule } from '../idempotency/idempotency.module.js';
import { Pet } from './pet.entity.js';
import { PetMetadataEntry } from './pet-metadata.entity.js';
import { PetsController } from './pets.controller.js';
import { PetsRepository } from './pets.repository.js';
import { PetsService } from './pets.service.js';

@Module({
  imports: [TypeOrmModule.forFeature([Pet, PetMetadataEntry]), IdempotencyModule, EventsModule],
  controllers: [PetsController],
  providers: [PetsRepository, PetsService],
  exports: [PetsService],
})
export class PetsModule {}
