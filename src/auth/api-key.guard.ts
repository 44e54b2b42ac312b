import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import type { ApiKeyPrincipal } from './api-key.principal.js';
import { ApiKeyService } from './api-key.service.js';
import { clientAddress } from './client-address.js';
import { IS_PUBLIC } from './public.decorator.js';

/** On responses to a key that expires within 7 days: when, as an HTTP date. */
export const API_KEY_EXPIRES_HEADER = 'API-Key-Expires';

/**
 * Global and default-deny, and first of all (createApp states the order): a route needs a valid API
 * key unless it is marked @Public().
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  /** Whether each handler is public, read from its metadata once. */
  private readonly publicHandlers = new WeakMap<object, boolean>();

  constructor(
    private readonly reflector: Reflector,
    private readonly apiKeys: ApiKeyService,
  ) {}

  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    const [request, response] = context.getArgs<[Request, Response]>();
    if (this.isPublic(context)) {
      request.apiKey = null;
      return true;
    }
    const principal = this.apiKeys.authenticate(request.headers.authorization, clientAddress(request));
    // At once for a key this instance knows (almost every request): no promise to wait for.
    return principal instanceof Promise
      ? principal.then((known) => this.admit(known, request, response))
      : this.admit(principal, request, response);
  }

  private admit(principal: ApiKeyPrincipal, request: Request, response: Response): true {
    request.apiKey = principal;
    const expiresAt = this.apiKeys.expiryNotice(principal);
    if (expiresAt) response.setHeader(API_KEY_EXPIRES_HEADER, expiresAt.toUTCString());
    return true;
  }

  private isPublic(context: ExecutionContext): boolean {
    const handler = context.getHandler();
    let isPublic = this.publicHandlers.get(handler);
    if (isPublic === undefined) {
      isPublic = this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [handler, context.getClass()]) === true;
      this.publicHandlers.set(handler, isPublic);
    }
    return isPublic;
  }
}
