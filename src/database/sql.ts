import { Inject, Injectable, Optional } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Logger } from 'pino';
import { DataSource, QueryFailedError, type QueryRunner } from 'typeorm';
import { PINO_LOGGER } from '../logging/logging.module.js';
import { id, datetime } from './columns.js';
import { type Mysql2Connection, type Mysql2Error, type Mysql2OkPacket, type Mysql2Pool, poolUse, type PoolUse } from './mysql-pool.js';
import { SqlDialect } from './sql-dialect.js';
import { hasList, utcDatetime, withListsExpanded, withLiterals } from './sql-literal.js';
import type { Statement } from './statement.js';

/** A row as the database answers it; each repository reads it into a typed value (columns.ts). */
export type Row = Record<string, unknown>;

/** What a written statement did. */
export interface Written {
  /** The id an INSERT generated (of its first row); 0 for any other statement. */
  readonly insertId: number;
  readonly affectedRows: number;
}

/** The statements of one transaction (Sql.transaction), or of none (Sql itself). */
export interface SqlRunner {
  /** The rows a SELECT answers, each read by `read`. */
  rows<T>(sql: string, parameters: readonly unknown[], read: (row: Row) => T): Promise<T[]>;
  /** Runs an INSERT, UPDATE or DELETE. */
  run(sql: string, parameters?: readonly unknown[]): Promise<Written>;
}

/**
 * The one way the service runs SQL: every repository's statements go through it, and nothing else
 * sends any. Values never travel inside a statement's text, whatever the session or server says:
 * - on MySQL, a single statement is a server-side prepared statement (mysql2 `execute`): the text is
 *   the repository's constant, the values go apart from it. Several statements in one round trip
 *   (`write`) are the repositories' constants with every value a literal no setting can reinterpret
 *   (sql-literal.ts); it is the only text sent with values in it, and mysql2's escaping is never used.
 * - on SQLite, better-sqlite3 binds every value (through TypeORM, which keeps its one connection's
 *   statements in order).
 * Every connection's session is pinned before its first statement (mysql-pool.ts). On MySQL it
 * skips TypeORM's query runner, which wraps every statement in a promise adapter, two subscriber
 * broadcasts and copies of the result (docs/PERFORMANCE.md); its bounds stay: a statement with no
 * answer within `maxQueryExecutionTime` fails and its connection is dropped (a late answer would
 * answer the next statement), and errors come wrapped in TypeORM's QueryFailedError, without values.
 */
@Injectable()
export class Sql implements SqlRunner {
  readonly dialect: SqlDialect;
  private readonly pool?: Mysql2Pool;
  private readonly timeoutMs: number;
  private readonly debug: boolean;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Optional() @Inject(PINO_LOGGER) private readonly logger?: Logger,
  ) {
    const { options, driver } = dataSource;
    this.dialect = new SqlDialect(options);
    this.pool = this.dialect.mysql ? (driver as { pool?: Mysql2Pool }).pool : undefined;
    this.timeoutMs = (options.type === 'mysql' && options.maxQueryExecutionTime) || 60_000;
    this.debug = logger?.isLevelEnabled('debug') ?? false;
  }

  async rows<T>(sql: string, parameters: readonly unknown[], read: (row: Row) => T): Promise<T[]> {
    if (!this.pool) return this.onSqlite((runner) => sqliteRows(runner, sql, parameters, read));
    const connection = await this.connection(this.pool);
    return readRows((await this.execute(connection, sql, parameters, true)) as Row[], read);
  }

  async run(sql: string, parameters: readonly unknown[] = []): Promise<Written> {
    if (!this.pool) return this.onSqlite((runner) => sqliteRun(runner, sql, parameters));
    const connection = await this.connection(this.pool);
    return written((await this.execute(connection, sql, parameters, true)) as Mysql2OkPacket);
  }

  /** The database's clock, to the millisecond: times that other processes compare are counted from one clock. */
  async now(runner: SqlRunner = this): Promise<Date> {
    const [now] = await runner.rows(this.dialect.nowSql, [], (row) => datetime(row.now));
    return now;
  }

  /**
   * Runs `statements` in one transaction, in order: all of them are applied, or none. On MySQL they
   * reach the server together with the transaction's start and commit, in one round trip. `check`
   * sees what each did before the commit, and refuses it by throwing: all is rolled back (on MySQL
   * the commit is then a round trip of its own).
   */
  async write(statements: readonly Statement[], check?: (written: Written[]) => void): Promise<Written[]> {
    if (!this.pool) return this.transaction(async (runner) => checked(await runStatements(runner, statements), check));
    // One round trip needs several statements in one text: each is a constant, each value a literal.
    const text = `START TRANSACTION;${statements.map(({ sql, parameters }) => withLiterals(sql, parameters)).join(';')}${check ? '' : ';COMMIT'}`;
    const constants = statements.map(({ sql }) => sql).join(';');
    const connection = await this.connection(this.pool);
    let done: Written[];
    try {
      const answers = (await this.exchange(connection, constants, false, (answer) =>
        connection.query({ sql: text }, answer),
      )) as Mysql2OkPacket[];
      done = checked(answers.slice(1, 1 + statements.length).map(written), check);
    } catch (error) {
      await this.abandon(connection, error);
      throw error;
    }
    if (check) await this.plain(connection, 'COMMIT', true);
    else connection.release();
    return done;
  }

  /**
   * Runs `work` in one transaction on one connection, handing it the runner for its statements:
   * committed when `work` resolves, rolled back when it throws.
   */
  async transaction<T>(work: (runner: SqlRunner) => Promise<T>): Promise<T> {
    if (!this.pool) return this.dataSource.transaction(({ queryRunner }) => work(sqliteRunner(queryRunner!)));
    const connection = await this.connection(this.pool);
    let result: T;
    try {
      await this.plain(connection, 'START TRANSACTION', false);
      result = await work({
        rows: async (sql, parameters, read) => readRows((await this.execute(connection, sql, parameters, false)) as Row[], read),
        run: async (sql, parameters = []) => written((await this.execute(connection, sql, parameters, false)) as Mysql2OkPacket),
      });
    } catch (error) {
      await this.abandon(connection, error);
      throw error;
    }
    await this.plain(connection, 'COMMIT', true);
    return result;
  }

  /** After a transaction failed: a connection that broke is gone, and its transaction with it; any other is rolled back. */
  private async abandon(connection: Mysql2Connection, error: unknown): Promise<void> {
    if (!isConnectionLost(error)) await this.plain(connection, 'ROLLBACK', true).catch(() => undefined);
  }

  /** How the MySQL pool's connections are used (for the metrics); none on SQLite. */
  poolUse(): PoolUse | undefined {
    return this.pool && poolUse(this.pool);
  }

  private async onSqlite<T>(work: (runner: QueryRunner) => Promise<T>): Promise<T> {
    // better-sqlite3's driver hands out its one runner on its one connection; releasing it is a formality.
    const runner = this.dataSource.createQueryRunner();
    try {
      return await work(runner);
    } finally {
      await runner.release();
    }
  }

  private connection(pool: Mysql2Pool): Promise<Mysql2Connection> {
    return new Promise((resolve, reject) =>
      // Raw, as from TypeORM: no connection came free in time (POOL_ACQUIRE_TIMEOUT), none could be opened, or its session refused.
      pool.getConnection((unavailable, connection) => (connection ? resolve(connection) : reject(unavailable))),
    );
  }

  /** A prepared statement; one whose parameters hold a list (its text varies with its length) goes as text with literals. */
  private execute(connection: Mysql2Connection, sql: string, parameters: readonly unknown[], last: boolean): Promise<unknown> {
    if (hasList(parameters)) {
      const text = withLiterals(sql, parameters);
      return this.exchange(connection, sql, last, (answer) => connection.query({ sql: text }, answer));
    }
    const values = parameters.map(mysqlValue);
    return this.exchange(connection, sql, last, (answer) => connection.execute({ sql, values }, answer));
  }

  /** A statement of the service's own with no values: START TRANSACTION, COMMIT, ROLLBACK. */
  private plain(connection: Mysql2Connection, sql: string, last: boolean): Promise<unknown> {
    return this.exchange(connection, sql, last, (answer) => connection.query({ sql }, answer));
  }

  /**
   * Sends a statement on `connection` and waits for its answer, at most `timeoutMs`; gives the
   * connection back to the pool when `last`, and drops it whenever the exchange broke it. `sql` is
   * what an error and the debug log say: the constant text, never a value.
   */
  private exchange(
    connection: Mysql2Connection,
    sql: string,
    last: boolean,
    send: (answer: (error: Mysql2Error | null, result?: unknown) => void) => void,
  ): Promise<unknown> {
    if (this.debug) this.logger!.debug({ context: 'TypeORM', sql }, 'query');
    return new Promise((resolve, reject) => {
      let pending = true;
      const timer = setTimeout(() => {
        pending = false;
        // Its answer may still come, to whatever is sent next: the connection goes.
        connection.destroy();
        const timedOut: Mysql2Error = Object.assign(new Error(`no answer within ${this.timeoutMs} ms`), {
          code: 'PROTOCOL_SEQUENCE_TIMEOUT',
        });
        reject(new QueryFailedError(sql, undefined, timedOut));
      }, this.timeoutMs);
      send((error, result) => {
        if (!pending) return;
        pending = false;
        clearTimeout(timer);
        if (error?.fatal) connection.destroy();
        else if (last) connection.release();
        if (!error) return resolve(result);
        // mysql2 adds the text it sent, which for `write` holds the values.
        (error as { sql?: string }).sql = sql;
        reject(new QueryFailedError(sql, undefined, error));
      });
    });
  }
}

/** A parameter as mysql2 binds it: a Date as a DATETIME in the pool's UTC, anything else as it is. */
function mysqlValue(value: unknown): unknown {
  return typeof value === 'boolean' ? Number(value) : value;
}

/** A parameter as better-sqlite3 binds it: times as UTC text, flags as 0/1. */
function sqliteValue(value: unknown): unknown {
  if (value instanceof Date) return utcDatetime(value);
  return typeof value === 'boolean' ? Number(value) : value;
}

/** The rows, each read into its typed value in place (the driver's array is ours). */
function readRows<T>(rows: Row[], read: (row: Row) => T): T[] {
  const values = rows as unknown[];
  for (let i = 0; i < rows.length; i++) values[i] = read(rows[i]);
  return values as T[];
}

function written({ insertId, affectedRows }: Mysql2OkPacket): Written {
  return { insertId: insertId === 0 ? 0 : id(insertId), affectedRows };
}

function checked(done: Written[], check?: (written: Written[]) => void): Written[] {
  check?.(done);
  return done;
}

async function runStatements(runner: SqlRunner, statements: readonly Statement[]): Promise<Written[]> {
  const done: Written[] = [];
  for (const { sql, parameters } of statements) done.push(await runner.run(sql, parameters));
  return done;
}

function sqliteRunner(queryRunner: QueryRunner): SqlRunner {
  return {
    rows: (sql, parameters, read) => sqliteRows(queryRunner, sql, parameters, read),
    run: (sql, parameters = []) => sqliteRun(queryRunner, sql, parameters),
  };
}

async function sqliteRows<T>(runner: QueryRunner, sql: string, parameters: readonly unknown[], read: (row: Row) => T): Promise<T[]> {
  const expanded = withListsExpanded(sql, parameters);
  return readRows((await runner.query(expanded.sql, expanded.parameters.map(sqliteValue), true)).records as Row[], read);
}

async function sqliteRun(runner: QueryRunner, sql: string, parameters: readonly unknown[]): Promise<Written> {
  const expanded = withListsExpanded(sql, parameters);
  const { raw, affected } = await runner.query(expanded.sql, expanded.parameters.map(sqliteValue), true);
  const affectedRows = affected ?? 0;
  // better-sqlite3 says the last insert's rowid after any statement: an id only when this one inserted.
  return { insertId: sql.startsWith('INSERT') && affectedRows > 0 ? id(raw) : 0, affectedRows };
}

/** A statement that timed out (its answer may still come, to the next one) or broke the connection. */
function isConnectionLost(error: unknown): boolean {
  const cause = (error instanceof QueryFailedError ? error.driverError : error) as Mysql2Error | undefined;
  return cause?.code === 'PROTOCOL_SEQUENCE_TIMEOUT' || cause?.fatal === true;
}
