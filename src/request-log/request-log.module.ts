import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { MetricsModule } from '../metrics/metrics.module.js';
import { RequestLogController } from './request-log.controller.js';
import { RequestLogEntry } from './request-log.entity.js';
import { RequestLogRepository } from './request-log.repository.js';
import { RequestLogService } from './request-log.service.js';
import { RequestLogWriter } from './request-log.writer.js';

/** The request log: kept by its writer off every request's path (createApp hands the edge its recorder), read by the key that made the requests. */
@Module({
  imports: [TypeOrmModule.forFeature([RequestLogEntry]), MetricsModule],
  controllers: [RequestLogController],
  providers: [RequestLogRepository, RequestLogService, RequestLogWriter],
  exports: [RequestLogWriter, RequestLogRepository],
})
export class RequestLogModule {}
