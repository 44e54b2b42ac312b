import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { IdempotencyInterceptor } from './idempotency.interceptor.js';
import { IdempotencyPurger } from './idempotency.purger.js';
import { IdempotencyRecord } from './idempotency-record.entity.js';
import { IdempotencyStore } from './idempotency.store.js';

/** Imported by the feature modules whose POSTs create resources (see CreatesResource). */
@Module({
  imports: [TypeOrmModule.forFeature([IdempotencyRecord])],
  providers: [IdempotencyStore, IdempotencyInterceptor, IdempotencyPurger],
  exports: [IdempotencyStore, IdempotencyInterceptor],
})
export class IdempotencyModule {}
