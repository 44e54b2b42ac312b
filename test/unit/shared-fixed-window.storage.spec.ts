import { describe, expect, it } from '@jest/globals';
import type { SharedRedis } from '../../src/redis/shared-redis.js';
import { SharedFixedWindowStorage } from '../../src/rate-limit/shared-fixed-window.storage.js';

const MINUTE = 60_000;

/** Stands in for Redis: answers with the given counts, or not at all (undefined) when it is away. */
function redisAnswering(answers: ([number, number, number] | undefined)[]): SharedRedis {
  return { rateLimitHit: async () => answers.shift() } as unknown as SharedRedis;
}

describe('SharedFixedWindowStorage', () => {
  it("reports Redis's count, seconds left and refusal", async () => {
    const storage = new SharedFixedWindowStorage(
      redisAnswering([
        [3, 41_200, 0],
        [61, 12_001, 1],
      ]),
    );
    expect(await storage.hit('key-1', MINUTE, 60)).toEqual({ hits: 3, secondsLeft: 42, refused: false });
    expect(await storage.hit('key-1', MINUTE, 60)).toEqual({ hits: 61, secondsLeft: 13, refused: true });
  });

  it("counts in the instance's own memory while Redis cannot be asked (fail-open)", async () => {
    const storage = new SharedFixedWindowStorage(redisAnswering([undefined, undefined, undefined]));
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(await storage.hit('key-1', MINUTE, 2));
    expect(answers.map(({ hits, refused }) => ({ hits, refused }))).toEqual([
      { hits: 1, refused: false },
      { hits: 2, refused: false },
      { hits: 3, refused: true },
    ]);
  });
});
