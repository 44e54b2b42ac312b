import type { Logger } from 'pino';
import { isDatabaseUnavailableAnswer } from '../errors/database-unavailable.js';
import type { FinishedRequest } from './edge.js';
import { isRefusedWhileStopping } from './in-flight-requests.js';
import { routeOf } from './route-table.js';
import { type LineOutput, lineOutputOf } from '../logging/logger.js';
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
  const output = lineOutputOf(parent);
  if (!output) throw new Error('accessLogLine: a logger made by createLogger, whose lines it writes as pino does');
  // Without the logger's redaction: the line's fields are these, and its URL is redacted already.
  const logger = parent.child({}, { redact: [] });
  const line = new LineWriter(logger, output);
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
 * Writes a request line as pino would, to the logger's own destination (respecting its level, its
 * time and its base fields, as createLogger sets them), field by field: pino's general serializer
 * made about 4 KB of garbage of each line, a tenth of what a request allocated (docs/PERFORMANCE.md).
 * test/unit/access-log.spec.ts holds it to pino's own output.
 */
class LineWriter {
  constructor(
    private readonly logger: Logger,
    private readonly output: LineOutput,
  ) {}

  write(
    level: 'info' | 'warn' | 'error',
    { reqId, req, res, responseTime, route, keyId, deprecated, aborted }: RequestLine,
    message: string,
  ): void {
    if (!this.logger.isLevelEnabled(level)) return;
    const id = JSON.stringify(reqId);
    this.output.destination.write(
      `{"level":${this.logger.levels.values[level]}${this.output.time()}${this.output.bindings},"reqId":${id},` +
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
