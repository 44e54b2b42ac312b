import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Logger } from 'pino';
import { DataSource, QueryFailedError } from 'typeorm';
import { PINO_LOGGER } from '../logging/logging.module.js';

/** The parts of mysql2's pool and its connections used here. */
interface Mysql2Connection {
  query(options: { sql: string; values: unknown[]; timeout: number }, callback: (error: Mysql2Error | null, result: unknown) => void): void;
  release(): void;
  destroy(): void;
}
interface Mysql2Pool {
  getConnection(callback: (error: Error | null, connection?: Mysql2Connection) => void): void;
}
interface Mysql2Error extends Error {
  code?: string;
  fatal?: boolean;
}

/**
 * Runs the repositories' written-out statements on the hot paths. On MySQL it sends each straight
 * through the pool TypeORM opened and bounds (DatabaseModule), skipping its query runner, which
 * wraps every statement in a promise adapter, two subscriber broadcasts and copies of the result
 * (docs/PERFORMANCE.md); the bounds stay TypeORM's: no reply within `maxQueryExecutionTime` fails
 * the statement and drops its connection (a late reply would answer the next statement), and an
 * error comes wrapped in TypeORM's QueryFailedError. On SQLite it goes through TypeORM: the driver
 * is synchronous underneath, and TypeORM keeps its one connection's statements in order.
 */
@Injectable()
export class Sql {
  private readonly pool?: Mysql2Pool;
  private readonly timeoutMs: number;
  private readonly debug: boolean;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(PINO_LOGGER) private readonly logger: Logger,
  ) {
    const { options, driver } = dataSource;
    this.pool = options.type === 'mysql' ? (driver as { pool?: Mysql2Pool }).pool : undefined;
    this.timeoutMs = (options.type === 'mysql' && options.maxQueryExecutionTime) || 0;
    this.debug = logger.isLevelEnabled('debug');
  }

  /** The rows a SELECT answers. */
  rows<T>(sql: string, parameters: unknown[]): Promise<T[]> {
    return this.pool ? (this.send(this.pool, sql, parameters) as Promise<T[]>) : this.dataSource.query(sql, parameters);
  }

  private send(pool: Mysql2Pool, sql: string, values: unknown[]): Promise<unknown> {
    // As TypeORM's logger would: the statement's text only, never its values.
    if (this.debug) this.logger.debug({ context: 'TypeORM', sql }, 'query');
    return new Promise((resolve, reject) =>
      pool.getConnection((unavailable, connection) => {
        // Raw, as from TypeORM: no connection came free in time (POOL_ACQUIRE_TIMEOUT), or none could be opened.
        if (!connection) return reject(unavailable);
        connection.query({ sql, values, timeout: this.timeoutMs }, (error, result) => {
          if (error?.code === 'PROTOCOL_SEQUENCE_TIMEOUT' || error?.fatal) connection.destroy();
          else connection.release();
          if (error) reject(new QueryFailedError(sql, values, error));
          else resolve(result);
        });
      }),
    );
  }
}
