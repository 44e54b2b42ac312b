import { Injectable } from '@nestjs/common';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { ApiKeyService } from '../auth/api-key.service.js';
import { clientAddress } from '../auth/client-address.js';
import { RouteTable } from './route-table.js';

/**
 * Answers the requests no route takes: an unknown path, a method the path does not answer to, a
 * path whose parameters do not decode. Authentication comes before everything else a client can
 * get wrong, and no guard sees a request that no route matched, so such a request is authenticated
 * here, by the same ApiKeyService (401 or 429 without a valid key), and then refused with 404, 405
 * or 400. Mounted just ahead of the application's routes; the refusal goes to the exception filter.
 */
@Injectable()
export class UnroutedRequests {
  constructor(
    private readonly routes: RouteTable,
    private readonly apiKeys: ApiKeyService,
  ) {}

  readonly handle: RequestHandler = (request: Request, _response: Response, next: NextFunction): void => {
    const refusal = this.routes.refusal(request.method, request.path);
    if (!refusal) return next();
    const authenticated = async () => this.apiKeys.authenticate(request.headers.authorization, clientAddress(request));
    authenticated().then((principal) => {
      // The request was made with this key, as a routed one's is (ApiKeyGuard): whoever records it (the request log) knows whose it is.
      request.apiKey = principal;
      next(refusal);
    }, next);
  };
}
