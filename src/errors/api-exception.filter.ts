import {
  type ArgumentsHost,
  BadRequestException,
  Catch,
  type ExceptionFilter,
  HttpException,
  HttpStatus,
  Logger,
  NotFoundException,
} from '@nestjs/common';
import type { Request, Response } from 'express';
import { ApiKeyService } from '../auth/api-key.service.js';
import { clientAddress } from '../auth/client-address.js';
import {
  databaseUnavailableAnswer,
  DatabaseUnavailableException,
  isDatabaseUnavailable,
  markDatabaseUnavailable,
} from './database-unavailable.js';
import { redactUrl } from '../logging/redact-url.js';
import {
  ApiException,
  InternalErrorException,
  MethodNotOnRouteException,
  RouteNotFoundException,
  ValidationFailedException,
} from './api-exception.js';
import { RouteTable } from '../server/route-table.js';

/**
 * Renders every error, from every layer, as `{code, message, status}`. Anything it does not know is
 * a 500 that is logged in full and tells the client nothing.
 */
@Catch()
export class ApiExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('ApiExceptionFilter');

  constructor(
    private readonly apiKeys: ApiKeyService,
    private readonly routes: RouteTable,
  ) {}

  async catch(exception: unknown, host: ArgumentsHost): Promise<void> {
    const request = host.switchToHttp().getRequest<Request>();
    const response = host.switchToHttp().getResponse<Response>();
    if (response.headersSent) {
      // Answered already (by the answer deadline): the late outcome, success or failure, has nowhere to go.
      this.logger.debug({
        reqId: request.requestId,
        msg: `${request.method} ${redactUrl(request.originalUrl)}: finished after its answer: ${describe(exception)}`,
      });
      response.end();
      return;
    }
    let error: ApiException;
    try {
      error = (await this.authenticationFailure(exception, request)) ?? this.toApiException(exception, request);
    } catch (failure) {
      error = this.toApiException(failure, request);
    }
    if (response.headersSent) {
      response.end();
      return;
    }
    if (error instanceof DatabaseUnavailableException) markDatabaseUnavailable(response, describe(exception));
    sendApiError(response, error);
  }

  /**
   * A request that failed before ApiKeyGuard saw it (no route, a bad URL) is answered 401 when it
   * has no valid key: authentication comes before everything else a client can get wrong.
   */
  private async authenticationFailure(exception: unknown, request: Request): Promise<ApiException | undefined> {
    const decided = request.apiKey !== undefined || (exception instanceof ApiException && exception.status === 401);
    // When the database failed (authenticating, perhaps), asking it again would only wait twice.
    if (decided || isDatabaseUnavailable(exception)) return undefined;
    try {
      await this.apiKeys.authenticate(request.headers.authorization, clientAddress(request));
      return undefined;
    } catch (denied) {
      if (denied instanceof ApiException) return denied;
      throw denied;
    }
  }

  private toApiException(exception: unknown, request: Request): ApiException {
    if (exception instanceof ApiException) return exception;
    // Nest's router raises NotFoundException for a request no route matched.
    if (exception instanceof NotFoundException) {
      const allowed = this.routes.allowedMethods(request.path);
      return allowed.length > 0
        ? new MethodNotOnRouteException(request.method, request.path, allowed)
        : new RouteNotFoundException(request.method, request.path);
    }
    // Express rejects a path whose percent-encoding does not decode.
    if (exception instanceof BadRequestException) {
      return new ValidationFailedException('The request URL is malformed.');
    }
    // Logged as part of the outage (database-outage-log.ts), not one line per request.
    if (isDatabaseUnavailable(exception)) return databaseUnavailableAnswer(request);
    // The readiness check (terminus) reports a failed dependency this way.
    if (exception instanceof HttpException && exception.getStatus() === HttpStatus.SERVICE_UNAVAILABLE) {
      return new DatabaseUnavailableException('Not ready: the database does not answer.');
    }
    // With its request's id: the request's own log line says which request it was.
    this.logger.error({
      reqId: request.requestId,
      err: exception instanceof Error ? exception : new Error(String(exception)),
      msg: `${request.method} ${redactUrl(request.originalUrl)} failed unexpectedly`,
    });
    return new InternalErrorException();
  }
}

function describe(exception: unknown): string {
  return exception instanceof Error ? exception.message : String(exception);
}

/**
 * Writes an ApiException as the response. A request whose body was never read (refused before it
 * was parsed) has its connection closed after the answer, so a slow or endless body cannot hold it.
 */
export function sendApiError(response: Response, error: ApiException): void {
  if (!response.req.complete) response.setHeader('Connection', 'close');
  // Set outright: res.json() would keep a Content-Type the route declared for its success.
  response.status(error.status).set(error.headers).type('application/json').send(JSON.stringify(error.toBody()));
}
