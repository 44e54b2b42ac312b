import type { Logger as PinoLogger } from 'pino';
import type { Logger } from 'typeorm';

/**
 * TypeORM's messages through the service's own logger, so that LOG_LEVEL filters them and they are
 * JSON lines like every other. SQL is logged as text only: parameter values (names, Idempotency-Keys,
 * stored responses) never are. A failed query is logged at debug: the service decides what a
 * failure means (a unique violation is how idempotency claims work) and logs that itself.
 */
export class TypeOrmLogger implements Logger {
  private readonly logger: PinoLogger;

  constructor(logger: PinoLogger) {
    this.logger = logger.child({ context: 'TypeORM' });
  }

  logQuery(query: string): void {
    this.logger.debug({ sql: query }, 'query');
  }

  logQueryError(error: string | Error, query: string): void {
    this.logger.debug({ sql: query }, `query failed: ${error instanceof Error ? error.message : error}`);
  }

  logQuerySlow(time: number, query: string): void {
    this.logger.warn({ sql: query, durationMs: time }, `slow query: ${time} ms`);
  }

  logSchemaBuild(message: string): void {
    this.logger.debug(message);
  }

  logMigration(message: string): void {
    this.logger.info(message);
  }

  log(level: 'log' | 'info' | 'warn', message: unknown): void {
    this.logger[level === 'warn' ? 'warn' : 'info'](String(message));
  }
}
