import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { ThrottlerModule } from '@nestjs/throttler';
import { AppConfig } from '../config/app-config.js';
import { ApiKeyThrottlerGuard, RATE_LIMIT_POLICY } from './api-key-throttler.guard.js';
import { SharedRedis } from '../redis/shared-redis.js';
import { FixedWindowThrottlerStorage } from './fixed-window.storage.js';
import { SharedFixedWindowThrottlerStorage } from './shared-fixed-window.storage.js';

/**
 * RATE_LIMIT_PER_MINUTE requests per API key and minute (0: no limit), in fixed one-minute windows.
 * Counted in Redis when REDIS_URL is set, so the limit holds for all instances together; otherwise
 * (and while Redis is away) in each instance's memory, where N instances allow up to N times the limit.
 */
@Module({
  imports: [
    ThrottlerModule.forRootAsync({
      inject: [AppConfig, SharedRedis],
      useFactory: (config: AppConfig, redis: SharedRedis) => ({
        throttlers: config.rateLimitPerMinute > 0 ? [{ name: RATE_LIMIT_POLICY, ttl: 60_000, limit: config.rateLimitPerMinute }] : [],
        storage: redis.configured ? new SharedFixedWindowThrottlerStorage(redis) : new FixedWindowThrottlerStorage(),
      }),
    }),
  ],
  providers: [{ provide: APP_GUARD, useClass: ApiKeyThrottlerGuard }],
})
export class RateLimitModule {}
