import { Module } from '@nestjs/common';
import { IdempotencyModule } from '../idempotency/idempotency.module.js';
import { PetsController } from './pets.controller.js';
import { PetsRepository } from './pets.repository.js';
import { PetsService } from './pets.service.js';

@Module({
  imports: [IdempotencyModule],
  controllers: [PetsController],
  providers: [PetsRepository, PetsService],
  exports: [PetsRepository, PetsService],
})
export class PetsModule {}
