import { type CanActivate, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { AppConfig } from '../config/app-config.js';
import type { RateLimitHit, RateLimitStorage } from './fixed-window.storage.js';
import { RateLimitedException } from './rate-limited.exception.js';

/** The policy's name in the RateLimit-Policy and RateLimit fields. */
export const RATE_LIMIT_POLICY = 'per-key';
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
 */
@Injectable()
export class RateLimitGuard implements CanActivate {
  private readonly limit: number;
  private readonly policyHeader: string;

  constructor(
    config: AppConfig,
    @Inject(RATE_LIMIT_STORAGE) private readonly storage: RateLimitStorage,
  ) {
    this.limit = config.rateLimitPerMinute;
    this.policyHeader = `"${RATE_LIMIT_POLICY}";q=${this.limit};w=${WINDOW_MS / 1000}`;
  }

  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    const [request, response] = context.getArgs<[Request, Response]>();
    if (this.limit === 0 || !request.apiKey) return true;
    const usage = this.storage.hit(`${RATE_LIMIT_POLICY}:${request.apiKey.keyId}`, WINDOW_MS, this.limit);
    return usage instanceof Promise ? usage.then((counted) => this.admit(counted, response)) : this.admit(usage, response);
  }

  /** Says the key's quota on the response, and refuses the request past it. */
  private admit(usage: RateLimitHit, response: Response): true {
    const reset = Math.max(0, usage.secondsLeft);
    response.setHeader('RateLimit-Policy', this.policyHeader);
    response.setHeader('RateLimit', `"${RATE_LIMIT_POLICY}";r=${Math.max(0, this.limit - usage.hits)};t=${reset}`);
    if (usage.refused) throw new RateLimitedException(Math.max(1, reset));
    return true;
  }
}
