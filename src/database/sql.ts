import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Logger } from 'pino';
import { DataSource, QueryFailedError } from 'typeorm';
import { PINO_LOGGER } from '../logging/logging.module.js';

/** A statement as a repository writes it out, to run with others in one transaction (Sql.write). */
export interface Statement {
  readonly sql: string;
  readonly parameters: readonly unknown[];
}

/**
 * Stands, in a value a transaction writes, for the id its first statement's insert generates, which
 * the database writes in its place (SqlDialect.jsonWithInsertedId): no id, category or quantity can
 * be this number (they are positive), so it marks exactly where the id goes.
 */
export const INSERTED_ID = Number.MIN_SAFE_INTEGER;

/** What a written statement did. */
export interface Written {
  /** The id an INSERT generated (of its first row). */
  readonly insertId: number;
  readonly affectedRows: number;
}

/** The parts of mysql2's pool and its connections used here. */
interface Mysql2Connection {
  query(
    options: { sql: string; values: readonly unknown[]; timeout: number },
    callback: (error: Mysql2Error | null, result: unknown) => void,
  ): void;
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
interface OkPacket {
  insertId: number;
  affectedRows: number;
}

/**
 * Runs the repositories' written-out statements on the hot paths. On MySQL it sends them straight
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
  async rows<T>(sql: string, parameters: unknown[]): Promise<T[]> {
    if (!this.pool) return this.dataSource.query(sql, parameters);
    const connection = await this.connection(this.pool);
    return (await this.exchange(connection, sql, parameters, true)) as T[];
  }

  /**
   * Runs `statements` in one transaction, in order: all of them are applied, or none. On MySQL they
   * reach the server together with the transaction's start and commit, in one round trip (one
   * multi-statement query; every value still goes as a placeholder the driver escapes). `check`
   * sees what each did before the commit, and refuses it by throwing: all is rolled back (on MySQL
   * the commit is then a round trip of its own).
   */
  async write(statements: readonly Statement[], check?: (written: Written[]) => void): Promise<Written[]> {
    if (!this.pool) return this.writeThroughTypeOrm(statements, check);
    const connection = await this.connection(this.pool);
    const batch = `START TRANSACTION;${statements.map(({ sql }) => sql).join(';')}${check ? '' : ';COMMIT'}`;
    let written: Written[];
    try {
      const results = (await this.exchange(
        connection,
        batch,
        statements.flatMap(({ parameters }) => parameters),
        false,
      )) as OkPacket[];
      written = results.slice(1, 1 + statements.length).map(({ insertId, affectedRows }) => ({ insertId, affectedRows }));
      check?.(written);
    } catch (error) {
      // A connection that failed is gone, and its transaction with it; any other is rolled back.
      if (!isConnectionLost(error)) await this.exchange(connection, 'ROLLBACK', [], true).catch(() => undefined);
      throw error;
    }
    if (check) await this.exchange(connection, 'COMMIT', [], true);
    else connection.release();
    return written;
  }

  private async writeThroughTypeOrm(statements: readonly Statement[], check?: (written: Written[]) => void): Promise<Written[]> {
    return this.dataSource.transaction(async ({ queryRunner }) => {
      const written: Written[] = [];
      for (const { sql, parameters } of statements) {
        const { raw, affected } = await queryRunner!.query(sql, [...parameters], true);
        written.push({ insertId: Number(raw), affectedRows: affected ?? 0 });
      }
      check?.(written);
      return written;
    });
  }

  private connection(pool: Mysql2Pool): Promise<Mysql2Connection> {
    return new Promise((resolve, reject) =>
      // Raw, as from TypeORM: no connection came free in time (POOL_ACQUIRE_TIMEOUT), or none could be opened.
      pool.getConnection((unavailable, connection) => (connection ? resolve(connection) : reject(unavailable))),
    );
  }

  /**
   * Sends `sql` on `connection` and reads its answer; gives the connection back to the pool when
   * `last`, and drops it whenever the exchange broke it.
   */
  private exchange(connection: Mysql2Connection, sql: string, values: readonly unknown[], last: boolean): Promise<unknown> {
    // As TypeORM's logger would: the statement's text only, never its values.
    if (this.debug) this.logger.debug({ context: 'TypeORM', sql }, 'query');
    return new Promise((resolve, reject) =>
      connection.query({ sql, values, timeout: this.timeoutMs }, (error, result) => {
        if (error && isConnectionLost(error)) connection.destroy();
        else if (last) connection.release();
        if (error) reject(new QueryFailedError(sql, values as unknown[], error));
        else resolve(result);
      }),
    );
  }
}

/** A statement that timed out (its reply may still come, to the next one) or broke the connection. */
function isConnectionLost(error: unknown): boolean {
  const cause = (error instanceof QueryFailedError ? error.driverError : error) as Mysql2Error | undefined;
  return cause?.code === 'PROTOCOL_SEQUENCE_TIMEOUT' || cause?.fatal === true;
}
