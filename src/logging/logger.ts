import { hostname } from 'node:os';
import { type DestinationStream, type Logger, type LoggerOptions, pino } from 'pino';
import type { AppConfig } from '../config/app-config.js';

/**
 * The service's pino logger's token (see createLogger): the request lines, TypeORM's and Nest's all go
 * through it. Here rather than beside LoggingModule, so that what injects it (Sql) does not load
 * nestjs-pino and with it Nest's core: the operator tools use Sql without Nest.
 */
export const PINO_LOGGER = Symbol('PINO_LOGGER');

/** pino's default base fields. */
const BASE = { pid: process.pid, hostname: hostname() };

/**
 * The service's one pino logger, writing JSON lines to stdout. Headers are never logged, nor the
 * values of credential-like query parameters; the redaction is a second line of defence for
 * anything that logs an object holding credentials.
 */
export function createLogger(config: Pick<AppConfig, 'logLevel' | 'logPretty' | 'logFile'>, destination?: DestinationStream): Logger {
  const options: LoggerOptions = {
    level: config.logLevel,
    // Exact paths: a wildcard would be checked against every line at every level.
    redact: { paths: ['req.headers.authorization', 'headers.authorization', 'authorization', 'apiKey', 'key'], censor: '[redacted]' },
    // pino's defaults, named: a line written by lineOutputOf's holder begins as pino begins it.
    base: BASE,
    timestamp: pino.stdTimeFunctions.epochTime,
  };
  const stream = streamFor(config, destination);
  const logger = pino(options, stream);
  outputs.set(logger, {
    destination: stream,
    time: pino.stdTimeFunctions.epochTime,
    bindings: `,"pid":${BASE.pid},"hostname":${JSON.stringify(BASE.hostname)}`,
  });
  return logger;
}

/** pino-pretty when LOG_PRETTY asks for it (and no LOG_FILE), else `destination`, LOG_FILE or stdout. */
function streamFor(config: Pick<AppConfig, 'logPretty' | 'logFile'>, destination?: DestinationStream): DestinationStream {
  if (config.logPretty && !config.logFile) {
    return pino.transport({ target: 'pino-pretty', options: { singleLine: true, translateTime: 'SYS:standard' } });
  }
  if (destination) return destination;
  if (config.logFile) return pino.destination({ dest: config.logFile, append: true, mkdir: true });
  return pino.destination(STDOUT);
}

/**
 * Where a logger that createLogger made writes, and what follows the level in each of its lines
 * (its time, then its base fields), for a writer that builds its lines itself as pino would (the
 * request log); undefined for any other logger.
 */
export function lineOutputOf(logger: Logger): LineOutput | undefined {
  return outputs.get(logger);
}

export interface LineOutput {
  readonly destination: DestinationStream;
  /** `,"time":…`, as pino writes it. */
  readonly time: () => string;
  /** `,"pid":…,"hostname":…`, as pino writes them. */
  readonly bindings: string;
}

const outputs = new WeakMap<Logger, LineOutput>();

/**
 * stdout, written asynchronously: a line waits in memory until 4 KiB have gathered or a second has
 * passed, so that a busy service makes one write(2) per dozen lines instead of one blocking write per
 * line (a quarter of a create's work). pino flushes it synchronously when the process exits, a
 * graceful stop and an uncaught error included; a kill -9 loses what waits, at most 4 KiB, about a
 * dozen lines, or the last second's.
 */
const STDOUT = { dest: 1, sync: false, minLength: 4096, periodicFlush: 1000 } as const;
