import { type ArgumentsHost, Catch, type ExceptionFilter, HttpException, HttpStatus, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { redactUrl } from '../logging/redact-url.js';
import { ApiException, InternalErrorException } from './api-exception.js';
import {
  databaseUnavailableAnswer,
  DatabaseUnavailableException,
  isDatabaseUnavailable,
  markDatabaseUnavailable,
} from './database-unavailable.js';

/**
 * Renders every error, from every layer, as `{code, message, status, requestId}`, and does nothing else: the
 * errors of the contract arrive as ApiExceptions, a database that failed as the driver's error.
 * Anything else is a 500 that is logged in full and tells the client nothing.
 */
@Catch()
export class ApiExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('ApiExceptionFilter');

  catch(exception: unknown, host: ArgumentsHost): void {
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
    const error = this.toApiException(exception, request);
    if (error instanceof DatabaseUnavailableException) markDatabaseUnavailable(response, describe(exception));
    sendApiError(response, error);
  }

  private toApiException(exception: unknown, request: Request): ApiException {
    if (exception instanceof ApiException) return exception;
    // Logged as part of the outage (outage-log.ts), not one line per request.
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
  const body = error.toBody(response.req.requestId, scopesOf(response.req));
  answered.set(response, { code: body.code, message: body.message });
  // Set outright: res.json() would keep a Content-Type the route declared for its success.
  response.status(error.status).set(error.headers).type('application/json').send(JSON.stringify(body));
}

/** The errors answered, by response, for who reports a finished request (the request log). */
const answered = new WeakMap<Response, { readonly code: string; readonly message: string }>();

/** The `{code, message}` a response answered, when it was an error of ours; undefined otherwise. */
export function answeredError(response: Response): { readonly code: string; readonly message: string } | undefined {
  return answered.get(response);
}

/** The scopes of the key the request was admitted with (auth/ sets `apiKey`); none before authentication. */
function scopesOf(request: Request): ReadonlySet<string> | undefined {
  return (request as { apiKey?: { scopes: ReadonlySet<string> } | null }).apiKey?.scopes;
}
