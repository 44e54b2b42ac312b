import { Module } from '@nestjs/common';
import { RedisModule } from '../redis/redis.module.js';
import { HttpMetrics } from './http-metrics.js';
import { MetricsController } from './metrics.controller.js';

@Module({
  imports: [RedisModule],
  controllers: [MetricsController],
  providers: [HttpMetrics],
  exports: [HttpMetrics],
})
export class MetricsModule {}
