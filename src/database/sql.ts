import { Inject, Injectable, Optional } from '@nestjs/common';
import type { Logger } from 'pino';
import { DataSource, QueryFailedError, type QueryRunner } from 'typeorm';
import { PINO_LOGGER } from '../logging/logger.js';
import { id, datetime, type Row } from './columns.js';
import { checkConfined } from './confined-statements.js';
import { poolUse, type PoolUse } from '../platform/mysql2-pool.js';
import { type Mysql2Connection, type Mysql2Error, type Mysql2OkPacket, type Mysql2Pool, mysqlPoolOf } from './mysql-pool.js';
import { SqlDialect } from './sql-dialect.js';
import {
  hasList,
  idsKeptInVariables,
  insertedIdVariable,
  rowsOf,
  SqlRows,
  utcDatetime,
  withListsExpanded,
  withLiterals,
} from './sql-literal.js';
import { InsertedId, JsonWithInsertedId, type Statement } from './statement.js';
import { Table } from './table.js';

export type { Row } from './columns.js';

/** What a written statement did. */
export interface Written {
  /** The id an INSERT generated (of its first row); 0 for any other statement. */
  readonly insertId: number;
  readonly affectedRows: number;
}

/** The statements of one transaction (Sql.begin), or of none (Sql itself). */
export interface SqlRunner {
  /** The rows a SELECT answers, each read by `read`. */
  rows<T>(sql: string, parameters: readonly unknown[], read: (row: Row) => T): Promise<T[]>;
  /** Runs an INSERT, UPDATE or DELETE. */
  run(sql: string, parameters?: readonly unknown[]): Promise<Written>;
}

/**
 * One transaction on one connection: what it reads and runs as it goes (the first statement starts
 * it, on MySQL in the same round trip), then the statements that end it with a commit. Every
 * transaction ends with `commit` or `rollback`, which give its connection back.
 */
export interface SqlTransaction extends SqlRunner {
  /** Its reads hold what they read until it ends: a `FOR UPDATE`'s rows on MySQL, the write lock on SQLite. */
  readonly holds: true;
  /**
   * Runs `statements` in order and commits all the transaction did: all of it is applied, or none.
   * On MySQL they reach the server together with the commit (and the start, when nothing was read),
   * in one round trip. A statement that `inserts` an id makes it the value of the InsertedId (or
   * JsonWithInsertedId) of that name in the statements after it. `check` sees what each did before
   * the commit and refuses it by throwing: all is rolled back (on MySQL the commit is then a round
   * trip of its own). Rolls back and throws when a statement fails.
   */
  commit(statements?: readonly Statement[], check?: (written: Written[]) => void): Promise<Written[]>;
  /** Undoes all the transaction did. */
  rollback(): Promise<void>;
}

/**
 * The one way the service runs SQL: every repository's statements go through it, and nothing else
 * sends any. Values never travel inside a statement's text, whatever the session or server says:
 * - on MySQL, a single statement is a server-side prepared statement (mysql2 `execute`): the text is
 *   the repository's constant, the values go apart from it. Several statements in one round trip
 *   (a transaction's start with its first read, its end with its writes) are the repositories'
 *   constants with every value a literal no setting can reinterpret (sql-literal.ts); they are the
 *   only text sent with values in it, and mysql2's escaping is never used.
 * - on SQLite, better-sqlite3 binds every value (through TypeORM). Its one connection takes one
 *   statement or one transaction at a time, in turn: a request's statement never joins another's
 *   open transaction, to be rolled back with it or to read what it had not committed.
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
  /** SQLite's turns: settled when the statement or transaction before the last one asked finished. */
  private sqliteTurns: Promise<void> = Promise.resolve();

  constructor(
    // The default data source's token is its class (@nestjs/typeorm's getDataSourceToken()): injected
    // without importing @nestjs/typeorm, which loads Nest's core (180 modules) into every operator tool.
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Optional() @Inject(PINO_LOGGER) private readonly logger?: Logger,
  ) {
    const { options } = dataSource;
    this.dialect = new SqlDialect(options);
    this.pool = this.dialect.mysql ? mysqlPoolOf(options) : undefined;
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

  /** The table `entity` declares, for the `properties` a repository reads and writes (Table). */
  table<E, K extends keyof E & string>(entity: new () => E, properties: readonly K[]): Table<E, K> {
    return new Table(this.dataSource.getMetadata(entity), properties);
  }

  /** The database's clock, to the millisecond: times that other processes compare are counted from one clock. */
  async now(runner: SqlRunner = this): Promise<Date> {
    const [now] = await runner.rows(this.dialect.nowSql, [], (row) => datetime(row.now));
    return now;
  }

  /** A transaction, to read in and end with `commit` or `rollback` (SqlTransaction). */
  begin(): Promise<SqlTransaction> {
    return this.pool ? this.beginOnMysql(this.pool) : this.beginOnSqlite();
  }

  /** Runs `statements` in one transaction, in order: all of them are applied, or none (SqlTransaction.commit). */
  async write(statements: readonly Statement[], check?: (written: Written[]) => void): Promise<Written[]> {
    return (await this.begin()).commit(statements, check);
  }

  /**
   * Runs `work` in one transaction on one connection, handing it the runner for its statements:
   * committed when `work` resolves, rolled back when it throws.
   */
  async transaction<T>(work: (runner: SqlRunner) => Promise<T>): Promise<T> {
    const transaction = await this.begin();
    let result: T;
    try {
      result = await work(transaction);
    } catch (error) {
      await transaction.rollback();
      throw error;
    }
    await transaction.commit();
    return result;
  }

  /** How the MySQL pool's connections are used (for the metrics); none on SQLite. */
  poolUse(): PoolUse | undefined {
    return this.pool && poolUse(this.pool);
  }

  private async beginOnMysql(pool: Mysql2Pool): Promise<SqlTransaction> {
    return new MysqlTransaction(this, await this.connection(pool));
  }

  private async beginOnSqlite(): Promise<SqlTransaction> {
    const endTurn = await this.sqliteTurn();
    // better-sqlite3's driver hands out its one runner on its one connection.
    const runner = this.dataSource.createQueryRunner();
    try {
      // IMMEDIATE: the write lock from the start, so that what the transaction reads stays as read.
      await runner.query('BEGIN IMMEDIATE');
    } catch (error) {
      endTurn();
      throw error;
    }
    let open = true;
    const end = async (sql: 'COMMIT' | 'ROLLBACK') => {
      if (!open) return;
      open = false;
      try {
        await runner.query(sql);
      } finally {
        endTurn();
      }
    };
    return {
      holds: true,
      rows: (sql, parameters, read) => sqliteRows(runner, sql, parameters, read),
      run: (sql, parameters = []) => sqliteRun(runner, sql, parameters),
      commit: async (statements = [], check) => {
        if (!open) throw new Error('the transaction ended already');
        const ids = new Map<string, number>();
        const done: Written[] = [];
        try {
          for (const { sql, parameters, inserts } of statements) {
            const outcome = await sqliteRun(runner, sql, withInsertedIds(parameters, ids));
            if (inserts) ids.set(inserts.name, outcome.insertId);
            done.push(outcome);
          }
          check?.(done);
        } catch (error) {
          await end('ROLLBACK').catch(() => undefined);
          throw error;
        }
        await end('COMMIT');
        return done;
      },
      rollback: () => end('ROLLBACK'),
    };
  }

  /** Waits for SQLite's connection to be free; the answer ends this turn. */
  private sqliteTurn(): Promise<() => void> {
    let endTurn!: () => void;
    const turn = new Promise<void>((resolve) => (endTurn = resolve));
    const before = this.sqliteTurns;
    this.sqliteTurns = before.then(() => turn);
    return before.then(() => endTurn);
  }

  private async onSqlite<T>(work: (runner: QueryRunner) => Promise<T>): Promise<T> {
    const endTurn = await this.sqliteTurn();
    try {
      return await work(this.dataSource.createQueryRunner());
    } finally {
      endTurn();
    }
  }

  private connection(pool: Mysql2Pool): Promise<Mysql2Connection> {
    return new Promise((resolve, reject) =>
      // Raw, as from TypeORM: no connection came free in time (POOL_ACQUIRE_TIMEOUT), none could be opened, or its session refused.
      pool.getConnection((unavailable, connection) => (connection ? resolve(connection) : reject(unavailable))),
    );
  }

  /** A prepared statement; one whose parameters hold a list (its text varies with its length) goes as text with literals. */
  execute(connection: Mysql2Connection, sql: string, parameters: readonly unknown[], last: boolean): Promise<unknown> {
    if (hasList(parameters)) {
      const text = withLiterals(sql, parameters);
      return this.exchange(connection, sql, last, (answer) => connection.query({ sql: text }, answer));
    }
    const values = parameters.map(mysqlValue);
    return this.exchange(connection, sql, last, (answer) => connection.execute({ sql, values }, answer));
  }

  /** A statement of the service's own with no values: COMMIT, ROLLBACK. */
  plain(connection: Mysql2Connection, sql: string, last: boolean): Promise<unknown> {
    return this.exchange(connection, sql, last, (answer) => connection.query({ sql }, answer));
  }

  /**
   * Sends a statement on `connection` and waits for its answer, at most `timeoutMs`; gives the
   * connection back to the pool when `last`, and drops it whenever the exchange broke it. `sql` is
   * what an error and the debug log say: the constant text, never a value. (Sql's and its
   * transactions' own: repositories run statements with rows, run and begin.)
   */
  exchange(
    connection: Mysql2Connection,
    sql: string,
    last: boolean,
    send: (answer: (error: Mysql2Error | null, result?: unknown) => void) => void,
  ): Promise<unknown> {
    if (this.debug) this.logger!.debug({ context: 'TypeORM', sql }, 'query');
    try {
      checkConfined(sql);
    } catch (error) {
      // Nothing was sent: the connection is as good as it was, and goes back as an answered statement's would.
      if (last) connection.release();
      return Promise.reject(error as Error);
    }
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
        // mysql2 adds the text it sent, which for a round trip of several statements holds the values.
        (error as { sql?: string }).sql = sql;
        reject(new QueryFailedError(sql, undefined, error));
      });
    });
  }
}

/** A parameter as mysql2 binds it: a Date as a DATETIME in the pool's UTC, anything else as it is. */
function mysqlValue(value: unknown): unknown {
  if (value instanceof InsertedId || value instanceof JsonWithInsertedId) throw new TypeError('an inserted id is a value of a commit only');
  return typeof value === 'boolean' ? Number(value) : value;
}

/** A parameter as better-sqlite3 binds it: times as UTC text, flags as 0/1. */
function sqliteValue(value: unknown): unknown {
  if (value instanceof Date) return utcDatetime(value);
  return typeof value === 'boolean' ? Number(value) : value;
}

/** The parameters with each inserted id (or JSON around one) made the value the named insert generated. */
function withInsertedIds(parameters: readonly unknown[], ids: ReadonlyMap<string, number>): readonly unknown[] {
  const idOf = ({ name }: InsertedId) => {
    const insertedId = ids.get(name);
    if (insertedId === undefined) throw new Error(`no insert named ${name} before the statement that needs its id`);
    return insertedId;
  };
  const value = (parameter: unknown): unknown => {
    if (parameter instanceof InsertedId) return idOf(parameter);
    if (parameter instanceof JsonWithInsertedId) return parameter.withId(idOf(parameter.id));
    // The rows of a multi-row insert may name an inserted id too (a new pet's metadata pairs).
    if (parameter instanceof SqlRows) return rowsOf(parameter.rows.map((row) => row.map(value)));
    return parameter;
  };
  return parameters.map(value);
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

async function sqliteRows<T>(runner: QueryRunner, sql: string, parameters: readonly unknown[], read: (row: Row) => T): Promise<T[]> {
  checkConfined(sql);
  const expanded = withListsExpanded(sql, parameters);
  return readRows((await runner.query(expanded.sql, expanded.parameters.map(sqliteValue), true)).records as Row[], read);
}

async function sqliteRun(runner: QueryRunner, sql: string, parameters: readonly unknown[]): Promise<Written> {
  checkConfined(sql);
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

/**
 * A transaction on one MySQL connection (Sql.begin): its state in fields and its steps as methods,
 * so that a write allocates one object for it (bench:alloc: a closure per step cost a create 1 KB).
 */
class MysqlTransaction implements SqlTransaction {
  readonly holds = true;
  private started = false;
  /** Until the connection goes back (or is dropped): a failed statement ended the transaction already. */
  private open = true;

  constructor(
    private readonly wire: Sql,
    private readonly connection: Mysql2Connection,
  ) {}

  async rows<T>(sql: string, parameters: readonly unknown[], read: (row: Row) => T): Promise<T[]> {
    return readRows((await this.statement(sql, parameters)) as Row[], read);
  }

  async run(sql: string, parameters: readonly unknown[] = []): Promise<Written> {
    return written((await this.statement(sql, parameters)) as Mysql2OkPacket);
  }

  async commit(statements: readonly Statement[] = [], check?: (written: Written[]) => void): Promise<Written[]> {
    if (!this.open) throw new Error('the transaction ended already');
    const { connection } = this;
    if (statements.length === 0) {
      this.open = false;
      if (this.started) await this.wire.plain(connection, 'COMMIT', true);
      else connection.release();
      return [];
    }
    // One text: the statements (each a constant, each value a literal), an id some later statement
    // cannot take as LAST_INSERT_ID() kept in a session variable, the commit unless checked first.
    const texts = this.started ? [] : ['START TRANSACTION'];
    const answerOf: number[] = [];
    const kept = idsKeptInVariables(statements);
    const idExpression = kept && ((id: InsertedId) => (kept.has(id.name) ? insertedIdVariable(id) : LAST_INSERT_ID));
    for (const { sql, parameters, inserts } of statements) {
      answerOf.push(texts.length);
      texts.push(withLiterals(sql, parameters, idExpression ?? lastInsertId));
      if (inserts && kept?.has(inserts.name)) texts.push(`SET ${insertedIdVariable(inserts)} = ${LAST_INSERT_ID}`);
    }
    if (!check) texts.push('COMMIT');
    let done: Written[];
    try {
      const reply = await this.wire.exchange(connection, constantsOf(statements), false, (answer) =>
        connection.query({ sql: texts.join(';') }, answer),
      );
      const answers = texts.length === 1 ? [reply] : (reply as unknown[]);
      done = answerOf.map((i) => written(answers[i] as Mysql2OkPacket));
      check?.(done);
    } catch (error) {
      await this.abandon(error);
      throw error;
    }
    this.open = false;
    if (check) await this.wire.plain(connection, 'COMMIT', true);
    else connection.release();
    return done;
  }

  async rollback(): Promise<void> {
    if (!this.open) return;
    if (this.started) return this.abandon(undefined);
    this.open = false;
    this.connection.release();
  }

  private async statement(sql: string, parameters: readonly unknown[]): Promise<unknown> {
    const { connection } = this;
    try {
      if (this.started) return await this.wire.execute(connection, sql, parameters, false);
      // The start and the first statement in one round trip: its values as literals.
      const text = `START TRANSACTION;${withLiterals(sql, parameters)}`;
      const [, answer] = (await this.wire.exchange(connection, sql, false, (reply) => connection.query({ sql: text }, reply))) as unknown[];
      this.started = true;
      return answer;
    } catch (error) {
      await this.abandon(error);
      throw error;
    }
  }

  /** After a statement failed: a connection that broke is gone, and its transaction with it; any other is rolled back. */
  private async abandon(error: unknown): Promise<void> {
    this.open = false;
    if (isConnectionLost(error)) return;
    await this.wire.plain(this.connection, 'ROLLBACK', true).catch(() => undefined);
  }
}

const LAST_INSERT_ID = 'LAST_INSERT_ID()';
const lastInsertId = () => LAST_INSERT_ID;

/** What an error and the debug log say of several statements: their constant texts, never a value. */
function constantsOf(statements: readonly Statement[]): string {
  let text = statements[0].sql;
  for (let i = 1; i < statements.length; i++) text += `;${statements[i].sql}`;
  return text;
}
