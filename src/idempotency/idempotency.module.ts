import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { IdempotencyPurger } from './idempotency.purger.js';
import { IdempotencyRecord } from './idempotency-record.entity.js';
import { IdempotencyRepository } from './idempotency.repository.js';

/** Imported by the feature modules whose POSTs create resources (see CreatesResource). */
@Module({
  imports: [TypeOrmModule.forFeature([IdempotencyRecord])],
  providers: [IdempotencyRepository, IdempotencyPurger],
  exports: [IdempotencyRepository],
})
export class IdempotencyModule {}
