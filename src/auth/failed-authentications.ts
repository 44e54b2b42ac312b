import { FixedWindowStorage } from '../rate-limit/fixed-window.storage.js';
import { RateLimitedException } from '../rate-limit/rate-limited.exception.js';

const WINDOW_MS = 60_000;

/**
 * Failed authentications per client address, in fixed one-minute windows (AUTH_FAILURES_PER_MINUTE;
 * 0: no limit). An address over the limit gets 429 instead of 401 for the keys it gets wrong, and
 * the keys it sends that this instance has not seen valid are looked up one at a time, so a flood
 * of made-up keys holds at most one database connection per address. A valid key is never refused
 * for the address it comes from: docs/SECURITY.md, "Failed authentications".
 */
export class FailedAuthentications {
  private readonly windows = new FixedWindowStorage();
  /** Per address over its limit, the end of its queue of key lookups. */
  private readonly lookups = new Map<string, Promise<unknown>>();

  constructor(private readonly limitPerMinute: number) {}

  /** Throws 429 RATE_LIMITED while `address` is over its limit. */
  refuseIfOverLimit(address: string): void {
    const seconds = this.secondsRefused(address);
    if (seconds > 0) throw new RateLimitedException(seconds, 'Too many failed authentications from this address');
  }

  record(address: string): void {
    if (this.limitPerMinute > 0) void this.windows.hit(address, WINDOW_MS, this.limitPerMinute);
  }

  /**
   * Runs `lookup` (of a key this instance has not seen valid) at once for an address within its
   * limit, and for one over it after that address's earlier lookups have settled.
   */
  pace<T>(address: string, lookup: () => Promise<T>): Promise<T> {
    if (this.secondsRefused(address) === 0) return lookup();
    const result = (this.lookups.get(address) ?? Promise.resolve()).then(lookup);
    const settled = result.then(
      () => undefined,
      () => undefined,
    );
    this.lookups.set(address, settled);
    void settled.then(() => this.lookups.get(address) === settled && this.lookups.delete(address));
    return result;
  }

  private secondsRefused(address: string): number {
    return this.limitPerMinute === 0 ? 0 : this.windows.secondsRefused(address, this.limitPerMinute);
  }
}
