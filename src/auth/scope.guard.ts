import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { InsufficientScopeException, SandboxKeyRefusedException } from './api-key.exceptions.js';
import { managesSandboxes, type Scope } from './scopes.js';
import { REQUIRED_SCOPE } from './requires-scope.js';

/**
 * Least privilege: a keyed route runs only for a key that holds every scope the route declares with
 * @RequiresScope (403 INSUFFICIENT_SCOPE otherwise). Runs after ApiKeyGuard and RateLimitGuard
 * (AppModule's request pipeline), so a refused request is counted like any other, and before the
 * body is read. Default-deny: a keyed route that declares no scope is a programming error, and a 500.
 * A sandbox's key is refused every route that manages sandboxes whatever scopes it holds: the one
 * place that rule is kept (DECISIONS "Sandboxes").
 */
@Injectable()
export class ScopeGuard implements CanActivate {
  /** The scopes each handler requires, read from its metadata once. */
  private readonly required = new WeakMap<object, readonly Scope[] | undefined>();

  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const [{ apiKey }] = context.getArgs<[Request]>();
    // A public route (null) needs no key, so no scope.
    if (!apiKey) return true;
    const scopes = this.requiredScopes(context);
    if (scopes === undefined) throw new Error(`${context.getClass().name}.${context.getHandler().name} declares no @RequiresScope`);
    if (!apiKey.environment.livemode && managesSandboxes(scopes)) throw new SandboxKeyRefusedException(scopes);
    for (const scope of scopes) if (!apiKey.scopes.has(scope)) throw new InsufficientScopeException(scopes, apiKey.scopes);
    return true;
  }

  private requiredScopes(context: ExecutionContext): readonly Scope[] | undefined {
    const handler = context.getHandler();
    if (!this.required.has(handler)) this.required.set(handler, this.reflector.get<readonly Scope[] | undefined>(REQUIRED_SCOPE, handler));
    return this.required.get(handler);
  }
}
