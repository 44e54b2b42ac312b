import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { ApiKeyService } from './api-key.service.js';
import { clientAddress } from './client-address.js';
import { IS_PUBLIC } from './public.decorator.js';

/** Global and default-deny: a route needs a valid API key unless it is marked @Public(). */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly apiKeys: ApiKeyService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<Request>();
    const isPublic = this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [context.getHandler(), context.getClass()]);
    request.apiKey = isPublic ? null : await this.apiKeys.authenticate(request.headers.authorization, clientAddress(request));
    return true;
  }
}
