import { Module } from '@nestjs/common';
import { RedisModule } from '../redis/redis.module.js';
import { SharedRedis } from '../redis/shared-redis.js';
import { FixedWindowStorage } from './fixed-window.storage.js';
import { RATE_LIMIT_STORAGE, RateLimitGuard } from './rate-limit.guard.js';
import { SharedFixedWindowStorage } from './shared-fixed-window.storage.js';

/**
 * RATE_LIMIT_PER_MINUTE requests per API key and minute (0: no limit), in fixed one-minute windows.
 * Counted in Redis when REDIS_URL is set, so the limit holds for all instances together; otherwise
 * (and while Redis is away) in each instance's memory, where N instances allow up to N times the limit.
 */
@Module({
  imports: [RedisModule],
  providers: [
    {
      provide: RATE_LIMIT_STORAGE,
      inject: [SharedRedis],
      useFactory: (redis: SharedRedis) => (redis.configured ? new SharedFixedWindowStorage(redis) : new FixedWindowStorage()),
    },
    RateLimitGuard,
  ],
  exports: [RateLimitGuard],
})
export class RateLimitModule {}
