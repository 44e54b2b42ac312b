import { describe, expect, it } from '@jest/globals';
import { FixedWindowThrottlerStorage } from '../../src/rate-limit/fixed-window.storage.js';

const MINUTE = 60_000;

describe('FixedWindowThrottlerStorage', () => {
  const at = (start: number) => {
    const clock = { now: start };
    return { clock, storage: new FixedWindowThrottlerStorage(() => clock.now) };
  };

  it('counts up to the limit, then refuses until the window ends, without counting refusals', async () => {
    const { clock, storage } = at(1_000_000);
    const first = await storage.increment('key-1', MINUTE, 2, MINUTE, 'per-key');
    expect(first).toEqual({ totalHits: 1, timeToExpire: 60, isBlocked: false, timeToBlockExpire: 0 });
    clock.now += 20_500;
    expect(await storage.increment('key-1', MINUTE, 2, MINUTE, 'per-key')).toEqual({
      totalHits: 2,
      timeToExpire: 40,
      isBlocked: false,
      timeToBlockExpire: 0,
    });
    for (let i = 0; i < 3; i++) {
      expect(await storage.increment('key-1', MINUTE, 2, MINUTE, 'per-key')).toEqual({
        totalHits: 3,
        timeToExpire: 40,
        isBlocked: true,
        timeToBlockExpire: 40,
      });
    }
    clock.now = 1_000_000 + MINUTE;
    expect(await storage.increment('key-1', MINUTE, 2, MINUTE, 'per-key')).toMatchObject({
      totalHits: 1,
      isBlocked: false,
      timeToExpire: 60,
    });
  });

  it('keeps a window per key and per throttler', async () => {
    const { storage } = at(0);
    await storage.increment('key-1', MINUTE, 1, MINUTE, 'per-key');
    expect(await storage.increment('key-2', MINUTE, 1, MINUTE, 'per-key')).toMatchObject({ totalHits: 1, isBlocked: false });
    expect(await storage.increment('key-1', MINUTE, 1, MINUTE, 'burst')).toMatchObject({ totalHits: 1, isBlocked: false });
    expect(await storage.increment('key-1', MINUTE, 1, MINUTE, 'per-key')).toMatchObject({ isBlocked: true });
  });

  it('forgets keys whose window has ended', async () => {
    const { clock, storage } = at(0);
    for (let i = 0; i < 100; i++) await storage.increment(`key-${i}`, MINUTE, 10, MINUTE, 'per-key');
    expect(storage.size).toBe(100);
    clock.now += MINUTE;
    await storage.increment('key-0', MINUTE, 10, MINUTE, 'per-key');
    expect(storage.size).toBe(1);
  });
});
