import type { SharedRedis } from '../redis/shared-redis.js';
import { FixedWindowStorage, type RateLimitHit, type RateLimitStorage } from './fixed-window.storage.js';

/**
 * The same fixed windows as FixedWindowStorage, counted in Redis so that the limit holds for every
 * instance together. Fail-open: while Redis cannot be asked, each instance counts in its own memory
 * (a key may then make up to N times its limit across N instances), because a rate limit that
 * refuses everything when its counter is away would make Redis a single point of failure.
 */
export class SharedFixedWindowStorage implements RateLimitStorage {
  private readonly local = new FixedWindowStorage();

  constructor(private readonly redis: SharedRedis) {}

  async hit(key: string, windowMs: number, limit: number): Promise<RateLimitHit> {
    const shared = await this.redis.rateLimitHit(key, windowMs, limit);
    if (shared === undefined) return this.local.hit(key, windowMs, limit);
    const [hits, msLeft, refused] = shared;
    return { hits, secondsLeft: Math.max(1, Math.ceil((msLeft > 0 ? msLeft : windowMs) / 1000)), refused: refused === 1 };
  }
}
