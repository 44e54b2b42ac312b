import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import type { Environment } from '../environments/environment.js';
import type { Scope } from './scopes.js';

/** Who a request acts for, once ApiKeyGuard has admitted it. */
export interface ApiKeyPrincipal {
  /** Stable and not secret: keys rate limits and idempotency records. */
  readonly keyId: string;
  readonly name: string;
  /** What the key may do (see RequiresScope). */
  readonly scopes: ReadonlySet<Scope>;
  /** When the key stops working, in ms since the epoch; null: never. */
  readonly expiresAt: number | null;
  /** Where everything the request reads and writes is: live, or the key's sandbox (stored with the key, never read from its text). */
  readonly environment: Environment;
}

declare module 'express-serve-static-core' {
  interface Request {
    /**
     * Set by ApiKeyGuard when it admits the request: the caller's key, or null on a public route.
     * Undefined means the request never reached the guard (it failed routing or parsing first).
     */
    apiKey?: ApiKeyPrincipal | null;
  }
}

/** The handler's parameter of the environment the request runs in: its key's (ApiKeyPrincipal.environment). */
export const InEnvironment = createParamDecorator((_: unknown, context: ExecutionContext): Environment => {
  const { apiKey } = context.getArgByIndex<Request>(0);
  if (!apiKey) throw new Error('a keyed route was reached without a key');
  return apiKey.environment;
});

/** The handler's parameter of the key the request was admitted with (ApiKeyGuard); on a keyed route, always one. */
export const Caller = createParamDecorator((_: unknown, context: ExecutionContext): ApiKeyPrincipal => {
  const { apiKey } = context.getArgByIndex<Request>(0);
  if (!apiKey) throw new Error('a keyed route was reached without a key');
  return apiKey;
});
