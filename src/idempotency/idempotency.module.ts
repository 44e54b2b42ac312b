import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { IdempotencyPurger } from './idempotency.purger.js';
import { IdempotencyRecord } from './idempotency-record.entity.js';
import { IdempotencyRepository } from './idempotency.repository.js';
import { Idempotency } from './idempotency.js';

/** Imported by the feature modules whose writes take an Idempotency-Key (Idempotency joins their UnitOfWork). */
@Module({
  imports: [TypeOrmModule.forFeature([IdempotencyRecord])],
  providers: [IdempotencyRepository, Idempotency, IdempotencyPurger],
  exports: [Idempotency],
})
export class IdempotencyModule {}
