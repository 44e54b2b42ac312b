import { describe, expect, it } from '@jest/globals';
import { outcomeOf } from '../../src/webhook-delivery/attempt-outcome.js';
import { whatFollows } from '../../src/webhook-delivery/retry-policy.js';

/** Attempts at 0, then 5 s, 30 s and 60 s after the one before: four in all. */
const SCHEDULE = [0, 5, 30, 60];
const NOW = new Date('2026-11-25T12:00:00.000Z');
const later = (seconds: number) => new Date(NOW.getTime() + seconds * 1000);

describe('the retry policy', () => {
  it('ends a delivery delivered on a 2xx, whatever attempt it was', () => {
    expect(whatFollows(0, 'delivered', SCHEDULE, NOW)).toEqual({ kind: 'delivered' });
    expect(whatFollows(3, 'delivered', SCHEDULE, NOW)).toEqual({ kind: 'delivered' });
  });

  it('retries anything else after the wait the schedule names for the next attempt', () => {
    expect(whatFollows(0, 'rejected', SCHEDULE, NOW)).toEqual({ kind: 'retry', at: later(5) });
    expect(whatFollows(1, 'timeout', SCHEDULE, NOW)).toEqual({ kind: 'retry', at: later(30) });
    expect(whatFollows(2, 'unreachable', SCHEDULE, NOW)).toEqual({ kind: 'retry', at: later(60) });
    expect(whatFollows(0, 'blocked', SCHEDULE, NOW)).toEqual({ kind: 'retry', at: later(5) });
  });

  it('fails a delivery whose last attempt of the schedule did not deliver', () => {
    expect(whatFollows(3, 'rejected', SCHEDULE, NOW)).toEqual({ kind: 'failed' });
    expect(whatFollows(0, 'timeout', [0], NOW)).toEqual({ kind: 'failed' });
  });

  it('fails a delivery at once on 410 Gone, with attempts of the schedule left', () => {
    expect(whatFollows(0, 'gone', SCHEDULE, NOW)).toEqual({ kind: 'failed' });
  });
});

describe('an attempt outcome', () => {
  it('is delivered for any 2xx, gone for 410, rejected for any other status', () => {
    expect([200, 204, 299].map((status) => outcomeOf({ status, durationMs: 1 }))).toEqual(['delivered', 'delivered', 'delivered']);
    expect(outcomeOf({ status: 410, durationMs: 1 })).toBe('gone');
    expect([301, 404, 500].map((status) => outcomeOf({ status, durationMs: 1 }))).toEqual(['rejected', 'rejected', 'rejected']);
  });

  it('is the failure when no answer came, unreachable when none is named', () => {
    expect(outcomeOf({ failure: 'timeout', durationMs: 10 })).toBe('timeout');
    expect(outcomeOf({ failure: 'blocked', durationMs: 0 })).toBe('blocked');
    expect(outcomeOf({ durationMs: 0 })).toBe('unreachable');
  });
});
