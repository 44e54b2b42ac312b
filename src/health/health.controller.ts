import { Controller, Get } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import {
  HealthCheck,
  HealthCheckService,
  type HealthCheckResult,
  type HealthIndicatorResult,
  HealthIndicatorService,
} from '@nestjs/terminus';
import { Public } from '../auth/public.decorator.js';
import { SharedRedis } from '../redis/shared-redis.js';
import { DatabaseReadinessRepository } from './database-readiness.repository.js';

/** For load balancers and orchestrators: no key, outside /v1 and outside the API's document. */
@Public()
@ApiExcludeController()
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly indicators: HealthIndicatorService,
    private readonly database: DatabaseReadinessRepository,
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

  private databaseReadable(): PromiseLike<HealthIndicatorResult> {
    return this.indicators
      .check('database')
      .attempt(() => this.database.read())
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
