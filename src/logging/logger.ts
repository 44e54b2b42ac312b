import { type DestinationStream, type Logger, type LoggerOptions, pino } from 'pino';
import type { AppConfig } from '../config/app-config.js';

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
    transport:
      config.logPretty && !config.logFile
        ? { target: 'pino-pretty', options: { singleLine: true, translateTime: 'SYS:standard' } }
        : undefined,
  };
  if (destination) return pino(options, destination);
  if (config.logFile) return pino(options, pino.destination({ dest: config.logFile, append: true, mkdir: true }));
  return options.transport ? pino(options) : pino(options, pino.destination(STDOUT));
}

/**
 * stdout, written asynchronously: a line waits in memory until 4 KiB have gathered or a second has
 * passed, so that a busy service makes one write(2) per dozen lines instead of one blocking write per
 * line (a quarter of a create's work). pino flushes it synchronously when the process exits, a
 * graceful stop and an uncaught error included; a kill -9 loses what waits, at most 4 KiB, about a
 * dozen lines, or the last second's.
 */
const STDOUT = { dest: 1, sync: false, minLength: 4096, periodicFlush: 1000 } as const;
