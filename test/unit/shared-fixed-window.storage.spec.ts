import { describe, expect, it } from '@jest/globals';
import type { SharedRedis } from '../../src/redis/shared-redis.js';
import { SharedFixedWindowThrottlerStorage } from '../../src/rate-limit/shared-fixed-window.storage.js';

const MINUTE = 60_000;

/** Stands in for Redis: answers with the given counts, or not at all (undefined) when it is away. */
function redisAnswering(answers: ([number, number, number] | undefined)[]): SharedRedis {
  return { rateLimitHit: async () => answers.shift() } as unknown as SharedRedis;
}

describe('SharedFixedWindowThrottlerStorage', () => {
  it("reports Redis's count, seconds left and refusal", async () => {
    const storage = new SharedFixedWindowThrottlerStorage(
      redisAnswering([
        [3, 41_200, 0],
        [61, 12_001, 1],
      ]),
    );
    expect(await storage.increment('key-1', MINUTE, 60, MINUTE, 'per-key')).toEqual({
      totalHits: 3,
      timeToExpire: 42,
      isBlocked: false,
      timeToBlockExpire: 0,
    });
    expect(await storage.increment('key-1', MINUTE, 60, MINUTE, 'per-key')).toEqual({
      totalHits: 61,
      timeToExpire: 13,
      isBlocked: true,
      timeToBlockExpire: 13,
    });
  });

  it("counts in the instance's own memory while Redis cannot be asked (fail-open)", async () => {
    const storage = new SharedFixedWindowThrottlerStorage(redisAnswering([undefined, undefined, undefined]));
    const hits = [];
    for (let i = 0; i < 3; i++) hits.push(await storage.increment('key-1', MINUTE, 2, MINUTE, 'per-key'));
    expect(hits.map(({ totalHits, isBlocked }) => ({ totalHits, isBlocked }))).toEqual([
      { totalHits: 1, isBlocked: false },
      { totalHits: 2, isBlocked: false },
      { totalHits: 3, isBlocked: true },
    ]);
  });
});
