import { type CanActivate, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { AppConfig } from '../config/app-config.js';
import type { RateLimitHit, RateLimitStorage } from './fixed-window.storage.js';
import { RateLimitedException } from './rate-limited.exception.js';

/** The policy's name in the RateLimit-Policy and RateLimit fields. */
export const RATE_LIMIT_POLICY = 'per-key';
/** The policy of the budget all sandboxes share (SANDBOX_RATE_LIMIT_PER_MINUTE), and its one counter's name. */
export const SANDBOX_RATE_LIMIT_POLICY = 'sandboxes';
/** Where the counts are kept: in this instance's memory, or in Redis for all instances (RateLimitModule). */
export const RATE_LIMIT_STORAGE = Symbol('RATE_LIMIT_STORAGE');
const WINDOW_MS = 60_000;

/**
 * RATE_LIMIT_PER_MINUTE requests per API key (not per address) across all operations, in fixed
 * one-minute windows, answered in the fields of the IETF httpapi RateLimit draft (-08 and later):
 * `RateLimit-Policy: "per-key";q=LIMIT;w=60` and `RateLimit: "per-key";r=REMAINING;t=RESET` on
 * every keyed response, and 429 RATE_LIMITED with Retry-After past the limit. Runs after
 * ApiKeyGuard (AppModule's request pipeline states the order), which has set request.apiKey; public
 * routes are not counted. Ours rather than @nestjs/throttler's ThrottlerGuard, which reads four
 * pieces of route metadata and builds a hashed key per request for options this service never
 * varies by route.
 *
 * A sandbox's key counts, besides, against SANDBOX_RATE_LIMIT_PER_MINUTE, one budget all sandboxes
 * share (DECISIONS "Sandboxes"), so that test traffic cannot take the live service's capacity; its
 * responses name both policies, and past the shared budget a 429 says it is the sandboxes'. A
 * request is counted against the shared budget only once its key's own limit admitted it, so that
 * one key over its limit does not spend the others' budget. Live keys never count against it.
 */
@Injectable()
export class RateLimitGuard implements CanActivate {
  private readonly limit: number;
  private readonly sandboxLimit: number;
  private readonly policyHeader: string;
  private readonly sandboxPolicyHeader: string;

  constructor(
    config: AppConfig,
    @Inject(RATE_LIMIT_STORAGE) private readonly storage: RateLimitStorage,
  ) {
    this.limit = config.rateLimitPerMinute;
    this.sandboxLimit = config.sandboxRateLimitPerMinute;
    const keyPolicy = this.limit === 0 ? undefined : `"${RATE_LIMIT_POLICY}";q=${this.limit};w=${WINDOW_MS / 1000}`;
    const sandboxPolicy =
      this.sandboxLimit === 0 ? undefined : `"${SANDBOX_RATE_LIMIT_POLICY}";q=${this.sandboxLimit};w=${WINDOW_MS / 1000}`;
    this.policyHeader = keyPolicy ?? '';
    this.sandboxPolicyHeader = [keyPolicy, sandboxPolicy].filter((policy) => policy !== undefined).join(', ');
  }

  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    const [request, response] = context.getArgs<[Request, Response]>();
    const key = request.apiKey;
    if (!key) return true;
    if (this.sandboxLimit > 0 && !key.environment.livemode) return this.admitSandboxed(key.keyId, response);
    if (this.limit === 0) return true;
    response.setHeader('RateLimit-Policy', this.policyHeader);
    const usage = this.storage.hit(`${RATE_LIMIT_POLICY}:${key.keyId}`, WINDOW_MS, this.limit);
    // Counted in memory, the answer is at once: no promise on the path of every live request.
    return usage instanceof Promise
      ? usage.then((counted) => this.admit(RATE_LIMIT_POLICY, this.limit, counted, response))
      : this.admit(RATE_LIMIT_POLICY, this.limit, usage, response);
  }

  /** A sandbox key's request: counted against its own limit, then, once that admitted it, against the sandboxes' shared budget. */
  private async admitSandboxed(keyId: string, response: Response): Promise<true> {
    response.setHeader('RateLimit-Policy', this.sandboxPolicyHeader);
    if (this.limit > 0)
      this.admit(RATE_LIMIT_POLICY, this.limit, await this.storage.hit(`${RATE_LIMIT_POLICY}:${keyId}`, WINDOW_MS, this.limit), response);
    const shared = await this.storage.hit(SANDBOX_RATE_LIMIT_POLICY, WINDOW_MS, this.sandboxLimit);
    return this.admit(SANDBOX_RATE_LIMIT_POLICY, this.sandboxLimit, shared, response);
  }

  /** Says what is left of `policy` on the response, after the policies said before it, and refuses the request past it. */
  private admit(policy: string, limit: number, usage: RateLimitHit, response: Response): true {
    const reset = Math.max(0, usage.secondsLeft);
    const field = `"${policy}";r=${Math.max(0, limit - usage.hits)};t=${reset}`;
    const said = response.getHeader('RateLimit');
    response.setHeader('RateLimit', said === undefined ? field : `${String(said)}, ${field}`);
    if (!usage.refused) return true;
    const retryAfter = Math.max(1, reset);
    if (policy === SANDBOX_RATE_LIMIT_POLICY)
      throw new RateLimitedException(
        retryAfter,
        `The sandboxes' shared budget is spent: all sandboxes together may make ${limit} requests a minute, on top of each key's own limit`,
      );
    throw new RateLimitedException(retryAfter);
  }
}
