import { Module } from '@nestjs/common';
import { HttpMetrics } from './http-metrics.js';
import { MetricsController } from './metrics.controller.js';

@Module({
  controllers: [MetricsController],
  providers: [HttpMetrics],
  exports: [HttpMetrics],
})
export class MetricsModule {}
