import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { ThrottlerModule } from '@nestjs/throttler';
import { AppConfig } from '../config/app-config.js';
import { ApiKeyThrottlerGuard, RATE_LIMIT_POLICY } from './api-key-throttler.guard.js';
import { FixedWindowThrottlerStorage } from './fixed-window.storage.js';

/**
 * RATE_LIMIT_PER_MINUTE requests per API key and minute (0: no limit), in fixed one-minute windows.
 * Counted in each instance's memory: behind a load balancer with N instances a key may make up to N times the limit.
 */
@Module({
  imports: [
    ThrottlerModule.forRootAsync({
      inject: [AppConfig],
      useFactory: (config: AppConfig) => ({
        throttlers: config.rateLimitPerMinute > 0 ? [{ name: RATE_LIMIT_POLICY, ttl: 60_000, limit: config.rateLimitPerMinute }] : [],
        storage: new FixedWindowThrottlerStorage(),
      }),
    }),
  ],
  providers: [{ provide: APP_GUARD, useClass: ApiKeyThrottlerGuard }],
})
export class RateLimitModule {}
