import { type ExecutionContext, Injectable } from '@nestjs/common';
import { ThrottlerGuard, type ThrottlerRequest } from '@nestjs/throttler';
import type { Request, Response } from 'express';
import { RateLimitedException } from './rate-limited.exception.js';

/** The policy's name in the RateLimit-Policy and RateLimit fields. */
export const RATE_LIMIT_POLICY = 'per-key';

/**
 * @nestjs/throttler, counting per API key (not per address) across all operations, and answering
 * in the fields of the IETF httpapi RateLimit draft (-08 and later) instead of X-RateLimit-*:
 * `RateLimit-Policy: "per-key";q=LIMIT;w=WINDOW` and `RateLimit: "per-key";r=REMAINING;t=RESET`.
 * Runs after ApiKeyGuard, which has set request.apiKey; public routes are not counted.
 */
@Injectable()
export class ApiKeyThrottlerGuard extends ThrottlerGuard {
  protected override async shouldSkip(context: ExecutionContext): Promise<boolean> {
    return !context.switchToHttp().getRequest<Request>().apiKey;
  }

  protected override async handleRequest({ context, limit, ttl, throttler, blockDuration }: ThrottlerRequest): Promise<boolean> {
    const { req, res } = this.getRequestResponse(context) as { req: Request; res: Response };
    const name = throttler.name ?? RATE_LIMIT_POLICY;
    const usage = await this.storageService.increment(`${name}:${req.apiKey!.keyId}`, ttl, limit, blockDuration, name);
    const reset = usage.isBlocked ? usage.timeToBlockExpire : usage.timeToExpire;
    res.setHeader('RateLimit-Policy', `"${name}";q=${limit};w=${Math.ceil(ttl / 1000)}`);
    res.setHeader('RateLimit', `"${name}";r=${Math.max(0, limit - usage.totalHits)};t=${Math.max(0, reset)}`);
    if (usage.isBlocked) throw new RateLimitedException(Math.max(1, reset));
    return true;
  }
}
