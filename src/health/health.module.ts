import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { RedisModule } from '../redis/redis.module.js';
import { DatabaseReadinessRepository } from './database-readiness.repository.js';
import { HealthController } from './health.controller.js';

@Module({
  // The failure is answered (503 SERVICE_UNAVAILABLE) and logged by the request log; terminus
  // need not log it a second time.
  imports: [TerminusModule.forRoot({ logger: false }), RedisModule],
  controllers: [HealthController],
  providers: [DatabaseReadinessRepository],
})
export class HealthModule {}
