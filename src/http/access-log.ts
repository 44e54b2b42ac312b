import { type Logger, pino } from 'pino';
import { isDatabaseUnavailableAnswer } from '../errors/database-unavailable.js';
import type { FinishedRequest } from './edge.js';
import { isRefusedWhileStopping } from './in-flight-requests.js';
import { routeOf } from './route-table.js';
import { redactUrl } from '../logging/redact-url.js';

/**
 * One line per finished request: request id, method, URL, route pattern, status, duration in ms
 * and the API key's id (not secret) when one was accepted; `error` level for a 5xx or a broken
 * response stream (the exception filter has logged the cause of a 5xx), except a 503 of a database
 * outage, which the outage log reports as a whole (outage-log.ts); `warn` for a 503 of an
 * instance that is stopping (expected in every deploy, nothing was done) and for a call of a
 * deprecated operation (its response says `Deprecation`), so operators can tell who must move
 * before the sunset; `aborted` when the client left before the answer was complete. Written here
 * rather than with pino-http, which builds two child loggers for every request.
 */
export function accessLogLine(parent: Logger): (finished: FinishedRequest) => void {
  // Without the logger's redaction: the line's fields are these, and its URL is redacted already.
  const logger = parent.child({}, { redact: [] });
  const line = new LineWriter(logger);
  return ({ request, response, durationMs, error }) => {
    const url = redactUrl(request.originalUrl ?? request.url);
    const fields: RequestLine = {
      reqId: request.requestId,
      req: { id: request.requestId, method: request.method, url },
      res: { statusCode: response.statusCode },
      responseTime: Math.round(durationMs),
      route: routeOf(request),
      keyId: request.apiKey?.keyId,
      deprecated: isDeprecatedCall(response) || undefined,
      aborted: !response.writableFinished || undefined,
    };
    const message = `${request.method} ${url} ${response.statusCode}`;
    const stopping = isRefusedWhileStopping(response);
    // pino serializes a broken stream's error as it does every error.
    if (error) logger.error({ ...fields, err: error }, message);
    else if (response.statusCode >= 500 && !stopping && !isDatabaseUnavailableAnswer(response)) line.write('error', fields, message);
    else if (stopping) line.write('warn', fields, `${message} (instance stopping)`);
    else if (fields.deprecated) line.write('warn', fields, `${message} (deprecated operation, key ${fields.keyId ?? 'none'})`);
    else line.write('info', fields, message);
  };
}

interface RequestLine {
  reqId: string;
  req: { id: string; method: string; url: string };
  res: { statusCode: number };
  responseTime: number;
  route: string | null;
  keyId: string | undefined;
  deprecated: true | undefined;
  aborted: true | undefined;
}

/**
 * Writes a request line as pino would, to pino's own destination (respecting its level, its time
 * and its bindings), field by field: pino's general serializer made about 4 KB of garbage of each
 * line, a tenth of what a request allocated (docs/PERFORMANCE.md). test/unit/request-log.spec.ts
 * holds it to pino's own output.
 */
class LineWriter {
  private readonly stream: { write(line: string): unknown };
  private readonly bindings: string;

  constructor(private readonly logger: Logger) {
    this.stream = (logger as unknown as Record<symbol, { write(line: string): unknown }>)[pino.symbols.streamSym];
    this.bindings = (logger as unknown as Record<symbol, string>)[pino.symbols.chindingsSym];
  }

  write(
    level: 'info' | 'warn' | 'error',
    { reqId, req, res, responseTime, route, keyId, deprecated, aborted }: RequestLine,
    message: string,
  ): void {
    if (!this.logger.isLevelEnabled(level)) return;
    const time = (this.logger as unknown as Record<symbol, () => string>)[pino.symbols.timeSym]();
    const id = JSON.stringify(reqId);
    this.stream.write(
      `{"level":${this.logger.levels.values[level]}${time}${this.bindings},"reqId":${id},` +
        `"req":{"id":${id},"method":${JSON.stringify(req.method)},"url":${JSON.stringify(req.url)}},` +
        `"res":{"statusCode":${res.statusCode}},"responseTime":${responseTime}` +
        `,"route":${JSON.stringify(route)}` +
        (keyId === undefined ? '' : `,"keyId":${JSON.stringify(keyId)}`) +
        (deprecated ? ',"deprecated":true' : '') +
        (aborted ? ',"aborted":true' : '') +
        `,"msg":${JSON.stringify(message)}}\n`,
    );
  }
}

/** A response of an operation marked deprecated (DeprecatedRoute): it carries the Deprecation field. */
export function isDeprecatedCall(response: { getHeader(name: string): unknown }): boolean {
  return response.getHeader('Deprecation') !== undefined;
}
