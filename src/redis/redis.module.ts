import { Module } from '@nestjs/common';
import { SharedRedis } from './shared-redis.js';

/** Redis, when REDIS_URL is set: the rate limit and revocations shared by every instance. */
@Module({ providers: [SharedRedis], exports: [SharedRedis] })
export class RedisModule {}
