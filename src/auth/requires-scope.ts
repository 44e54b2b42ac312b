import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiExtension } from '@nestjs/swagger';
import type { Scope } from './scopes.js';

// Apart from scopes.ts, which the key tools load: @nestjs/swagger alone cost each of their processes 0.3 s of processor time.
/** The route metadata RequiresScope sets and ScopeGuard reads. */
export const REQUIRED_SCOPE = 'petstore:required-scope';

/**
 * The scopes an operation needs, all of them, checked by ScopeGuard once the key is authenticated
 * and before anything is validated, read or written, and stated in the document (`x-required-scopes`,
 * and a sentence of the operation's description). A change of an existing resource names its read
 * scope as well as its write scope: its answer shows the resource (`changesExisting`).
 */
export function RequiresScope(...scopes: [Scope, ...Scope[]]): MethodDecorator {
  return applyDecorators(SetMetadata(REQUIRED_SCOPE, scopes), ApiExtension('x-required-scopes', scopes));
}

/** The scopes of a change of an existing resource of `area` (PATCH, DELETE, cancel): its write scope and its read scope. */
export function changesExisting(area: 'pets' | 'store' | 'webhooks' | 'sandboxes'): [Scope, Scope] {
  return [`${area}:read`, `${area}:write`];
}
