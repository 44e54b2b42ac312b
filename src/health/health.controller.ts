import { Controller, Get } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { InjectDataSource } from '@nestjs/typeorm';
import {
  HealthCheck,
  HealthCheckService,
  type HealthCheckResult,
  type HealthIndicatorResult,
  HealthIndicatorService,
} from '@nestjs/terminus';
import { DataSource } from 'typeorm';
import { Public } from '../auth/public.decorator.js';
import { SharedRedis } from '../redis/shared-redis.js';

/** For load balancers and orchestrators: no key, outside /v1 and outside the API's document. */
@Public()
@ApiExcludeController()
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly indicators: HealthIndicatorService,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly redis: SharedRedis,
  ) {}

  /** The process answers. */
  @Get('live')
  @HealthCheck()
  live(): Promise<HealthCheckResult> {
    return this.health.check([]);
  }

  /** The service's data can be read within 2 s; otherwise 503 SERVICE_UNAVAILABLE. Redis, when configured, is reported beside it. */
  @Get('ready')
  @HealthCheck()
  ready(): Promise<HealthCheckResult> {
    return this.health.check([() => this.databaseReadable(), ...(this.redis.configured ? [() => this.redisStatus()] : [])]);
  }

  /**
   * A read of one of the service's tables, not `SELECT 1`: a Galera node that lost its quorum still
   * answers `SELECT 1`, and refuses every read of data (WSREP_NOT_READY).
   */
  private databaseReadable(): PromiseLike<HealthIndicatorResult> {
    return this.indicators
      .check('database')
      .attempt(async () => void (await this.dataSource.query('SELECT 1 FROM pets LIMIT 1')))
      .withTimeout(2_000);
  }

  /**
   * Reported, never failing readiness: without Redis an instance still serves (it counts the rate
   * limit alone), so taking instances out of the load balancer for it would make Redis a single
   * point of failure.
   */
  private async redisStatus(): Promise<HealthIndicatorResult> {
    const shared = await this.redis.ping();
    return { redis: { status: 'up', shared, ...(shared ? {} : { message: 'unreachable: each instance counts the rate limit alone' }) } };
  }
}
