import type { ThrottlerStorage } from '@nestjs/throttler';
import type { SharedRedis } from '../redis/shared-redis.js';
import { FixedWindowThrottlerStorage } from './fixed-window.storage.js';

/**
 * The same fixed windows as FixedWindowThrottlerStorage, counted in Redis so that the limit holds
 * for every instance together. Fail-open: while Redis cannot be asked, each instance counts in
 * its own memory (a key may then make up to N times its limit across N instances), because a rate
 * limit that refuses everything when its counter is away would make Redis a single point of failure.
 */
export class SharedFixedWindowThrottlerStorage implements ThrottlerStorage {
  private readonly local = new FixedWindowThrottlerStorage();

  constructor(private readonly redis: SharedRedis) {}

  async increment(key: string, ttl: number, limit: number, blockDuration: number, throttlerName: string) {
    const shared = await this.redis.rateLimitHit(`${throttlerName}:${key}`, ttl, limit);
    if (shared === undefined) return this.local.increment(key, ttl, limit, blockDuration, throttlerName);
    const [hits, msLeft, refused] = shared;
    const secondsLeft = Math.max(1, Math.ceil((msLeft > 0 ? msLeft : ttl) / 1000));
    const isBlocked = refused === 1;
    return { totalHits: hits, timeToExpire: secondsLeft, isBlocked, timeToBlockExpire: isBlocked ? secondsLeft : 0 };
  }
}
