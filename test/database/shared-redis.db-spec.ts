import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import type { AppConfig } from '../../src/config/app-config.js';
import { SharedRedis } from '../../src/redis/shared-redis.js';
import { REDIS_PROBE_VARIABLE, redisServerUrl, removeRedisKeys } from '../e2e/support/global-setup.js';

// A real Redis (the test server, keys of this file's own prefix); without one the suite says so, and under CI fails.
const SERVERS = process.env[REDIS_PROBE_VARIABLE] === 'available' ? ['Redis'] : [];

/** Keeps this process busy, as a long collection or a burst of work does: no timer runs and no socket is read meanwhile. */
function stall(ms: number): void {
  const until = Date.now() + ms;
  while (Date.now() < until);
}

describe.each(SERVERS)('the shared %s, when this process stalls past the command time-out (250 ms)', () => {
  const prefix = `test-shared-redis-${randomBytes(6).toString('hex')}:`;
  let redis: SharedRedis;
  beforeAll(async () => {
    redis = new SharedRedis({ redis: { url: redisServerUrl(), keyPrefix: prefix } } as AppConfig);
    await redis.onApplicationBootstrap();
  });
  afterAll(async () => {
    await redis?.onApplicationShutdown();
    await removeRedisKeys(prefix);
  });

  it('takes the answer that came during the stall as an answer: Redis is not called away, and the count stays shared', async () => {
    // Once, so that Redis has the script: its first use takes a second round trip (EVALSHA, then EVAL).
    expect(await redis.rateLimitHit('stalled', 60_000, 10)).toEqual([1, expect.any(Number), 0]);
    const counted = redis.rateLimitHit('stalled', 60_000, 10);
    // Redis answers within a millisecond; this process reads the answer only once the stall is over.
    stall(400);
    expect(await counted).toEqual([2, expect.any(Number), 0]);
    expect({ errors: redis.errors, shared: redis.shared }).toEqual({ errors: 0, shared: true });
    expect(await redis.ping()).toBe(true);
  });
});
