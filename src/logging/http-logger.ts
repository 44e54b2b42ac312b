import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Request } from 'express';
import { type DestinationStream, type LoggerOptions, pino } from 'pino';
import { type HttpLogger, pinoHttp } from 'pino-http';
import type { AppConfig } from '../config/app-config.js';
import { isApplicationRoute } from '../http/route-table.js';
import { redactUrl } from './redact-url.js';

/**
 * The service's one pino logger and its request logger: one JSON line per finished request
 * (request id, method, URL, route, status, duration in ms), written to stdout. Headers are not
 * logged at all, nor the values of credential-like query parameters; the redaction is a second line of defence for anything that logs an object
 * holding credentials.
 */
export function createHttpLogger(config: Pick<AppConfig, 'logLevel' | 'logPretty'>, destination?: DestinationStream): HttpLogger {
  const options: LoggerOptions = {
    level: config.logLevel,
    // Exact paths: a wildcard would be checked against every line at every level.
    redact: { paths: ['req.headers.authorization', 'headers.authorization', 'authorization', 'apiKey', 'key'], censor: '[redacted]' },
    transport: config.logPretty ? { target: 'pino-pretty', options: { singleLine: true, translateTime: 'SYS:standard' } } : undefined,
  };
  const logger = destination ? pino(options, destination) : pino(options);
  return pinoHttp({
    logger,
    // The id requestId() gave the request, echoed to the client as X-Request-Id.
    genReqId: (request) => (request as Request).requestId,
    // Logs made while handling a request carry only its id, not the whole request.
    quietReqLogger: true,
    serializers: {
      req: (request: IncomingMessage & { id?: string }) => ({ id: request.id, method: request.method, url: redactUrl(request.url ?? '') }),
      res: (response: ServerResponse) => ({ statusCode: response.statusCode }),
    },
    customLogLevel: (_request, response, error) => (error || response.statusCode >= 500 ? 'error' : 'info'),
    customSuccessMessage: (request, response) => `${request.method} ${redactUrl(request.url ?? '')} ${response.statusCode}`,
    customErrorMessage: (request, response) => `${request.method} ${redactUrl(request.url ?? '')} ${response.statusCode}`,
    // The route pattern (e.g. /v1/pets/:petId) is known only once the request has been routed.
    customSuccessObject: (request, _response, value) => ({ ...value, route: routeOf(request) }),
    customErrorObject: (request, response, error, value) => {
      // For a 5xx answer pino-http makes up an Error whose stack is its own; the exception filter
      // has already logged the real cause, so the request line carries only a real error.
      const { err, ...line } = value as { err?: unknown };
      const madeUp = error.message === `failed with status code ${response.statusCode}`;
      return { ...line, ...(madeUp ? {} : { err }), route: routeOf(request) };
    },
  });
}

/** The matched route pattern, or null for a request no route of the application matched. */
export function routeOf(request: IncomingMessage): string | null {
  const route = (request as Request).route as { path?: unknown } | undefined;
  return typeof route?.path === 'string' && isApplicationRoute(route.path) ? route.path : null;
}
