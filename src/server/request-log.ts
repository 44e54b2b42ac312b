import type { Logger } from 'pino';
import { isDatabaseUnavailableAnswer } from '../errors/database-unavailable.js';
import type { FinishedRequest } from './edge.js';
import { isRefusedWhileStopping } from './in-flight-requests.js';
import { routeOf } from './route-table.js';
import { redactUrl } from '../logging/redact-url.js';

/**
 * One line per finished request: request id, method, URL, route pattern, status, duration in ms
 * and the API key's id (not secret) when one was accepted; `error` level for a 5xx or a broken
 * response stream (the exception filter has logged the cause of a 5xx), except a 503 of a database
 * outage, which the outage log reports as a whole (database-outage-log.ts); `warn` for a 503 of an
 * instance that is stopping (expected in every deploy, nothing was done) and for a call of a
 * deprecated operation (its response says `Deprecation`), so operators can tell who must move
 * before the sunset; `aborted` when the client left before the answer was complete. Written here
 * rather than with pino-http, which builds two child loggers for every request.
 */
export function requestLogLine(parent: Logger): (finished: FinishedRequest) => void {
  // Without the logger's redaction: the line's fields are these, and its URL is redacted already
  // (redacting the nested `req` costs about 1 KB of garbage a request).
  const logger = parent.child({}, { redact: [] });
  return ({ request, response, durationMs, error }) => {
    const url = redactUrl(request.originalUrl ?? request.url);
    const line = {
      reqId: request.requestId,
      req: { id: request.requestId, method: request.method, url },
      res: { statusCode: response.statusCode },
      responseTime: Math.round(durationMs),
      route: routeOf(request),
      ...(request.apiKey && { keyId: request.apiKey.keyId }),
      ...(isDeprecatedCall(response) && { deprecated: true }),
      ...(response.writableFinished ? {} : { aborted: true }),
      ...(error ? { err: error } : {}),
    };
    const message = `${request.method} ${url} ${response.statusCode}`;
    const stopping = isRefusedWhileStopping(response);
    if (error || (response.statusCode >= 500 && !stopping && !isDatabaseUnavailableAnswer(response))) logger.error(line, message);
    else if (stopping) logger.warn(line, `${message} (instance stopping)`);
    else if (line.deprecated) logger.warn(line, `${message} (deprecated operation, key ${line.keyId ?? 'none'})`);
    else logger.info(line, message);
  };
}

/** A response of an operation marked deprecated (DeprecatedRoute): it carries the Deprecation field. */
export function isDeprecatedCall(response: { getHeader(name: string): unknown }): boolean {
  return response.getHeader('Deprecation') !== undefined;
}
