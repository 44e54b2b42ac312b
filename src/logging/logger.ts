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
  return config.logFile ? pino(options, pino.destination({ dest: config.logFile, append: true, mkdir: true })) : pino(options);
}
