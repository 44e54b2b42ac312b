import { describe, expect, it } from '@jest/globals';
import { FixedWindowStorage } from '../../src/rate-limit/fixed-window.storage.js';

const MINUTE = 60_000;

describe('FixedWindowStorage', () => {
  const at = (start: number) => {
    const clock = { now: start };
    return { clock, storage: new FixedWindowStorage(() => clock.now) };
  };

  it('counts up to the limit, then refuses until the window ends, without counting refusals', async () => {
    const { clock, storage } = at(1_000_000);
    expect(await storage.hit('key-1', MINUTE, 2)).toEqual({ hits: 1, secondsLeft: 60, refused: false });
    clock.now += 20_500;
    expect(await storage.hit('key-1', MINUTE, 2)).toEqual({ hits: 2, secondsLeft: 40, refused: false });
    for (let i = 0; i < 3; i++) {
      expect(await storage.hit('key-1', MINUTE, 2)).toEqual({ hits: 3, secondsLeft: 40, refused: true });
      expect(storage.secondsRefused('key-1', 2)).toBe(40);
    }
    clock.now = 1_000_000 + MINUTE;
    expect(storage.secondsRefused('key-1', 2)).toBe(0);
    expect(await storage.hit('key-1', MINUTE, 2)).toEqual({ hits: 1, secondsLeft: 60, refused: false });
  });

  it('keeps a window per key', async () => {
    const { storage } = at(0);
    await storage.hit('key-1', MINUTE, 1);
    expect(await storage.hit('key-2', MINUTE, 1)).toMatchObject({ hits: 1, refused: false });
    expect(await storage.hit('key-1', MINUTE, 1)).toMatchObject({ refused: true });
  });

  it('forgets keys whose window has ended', async () => {
    const { clock, storage } = at(0);
    for (let i = 0; i < 100; i++) await storage.hit(`key-${i}`, MINUTE, 10);
    expect(storage.size).toBe(100);
    clock.now += MINUTE;
    await storage.hit('key-0', MINUTE, 10);
    expect(storage.size).toBe(1);
  });
});
