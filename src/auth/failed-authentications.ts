import { FixedWindowStorage } from '../rate-limit/fixed-window.storage.js';
import { RateLimitedException } from '../rate-limit/rate-limited.exception.js';

const WINDOW_MS = 60_000;

/**
 * Failed authentications per client address, in fixed one-minute windows (AUTH_FAILURES_PER_MINUTE;
 * 0: no limit). An address over the limit gets 429 instead of 401, and no database lookup for a key
 * this instance has not seen valid, so guessing or flooding with made-up keys costs the database
 * nothing; keys this instance knows to be valid are never refused by it.
 */
export class FailedAuthentications {
  private readonly windows = new FixedWindowStorage();

  constructor(private readonly limitPerMinute: number) {}

  /** Throws 429 RATE_LIMITED while `address` is over its limit. */
  refuseIfOverLimit(address: string): void {
    if (this.limitPerMinute === 0) return;
    const seconds = this.windows.secondsRefused(address, this.limitPerMinute);
    if (seconds > 0) throw new RateLimitedException(seconds, 'Too many failed authentications from this address');
  }

  record(address: string): void {
    if (this.limitPerMinute > 0) void this.windows.hit(address, WINDOW_MS, this.limitPerMinute);
  }
}
