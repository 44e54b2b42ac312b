import { createRequire } from 'node:module';
import { type AfterQueryEvent, type DataSourceOptions, type EntitySubscriberInterface, EventSubscriber } from 'typeorm';
import { POOL_ACQUIRE_TIMEOUT } from '../errors/database-unavailable.js';
import { boundConnectionWaits, boundPoolEnd, type PoolOfConnections, prepareEachConnection } from '../platform/mysql2-pool.js';
import { READ_SESSION, SET_SESSION, SessionRefusedError, type SessionSettings, sessionDifferences } from './session.js';

/** An error of mysql2: `fatal` when it broke the connection; `errno` when the server sent it. */
export interface Mysql2Error extends Error {
  code?: string;
  errno?: number;
  fatal?: boolean;
}

/** What a statement that changes rows answers. */
export interface Mysql2OkPacket {
  readonly insertId: number | string;
  readonly affectedRows: number;
}

type Answer = (error: Mysql2Error | null, result?: unknown) => void;

/** The parts of a mysql2 pool connection the service uses. */
export interface Mysql2Connection {
  /** Text as it is: only the service's own constants, and literals encoded by sql-literal.ts. */
  query(options: { sql: string; timeout?: number }, callback: Answer): void;
  /** A server-side prepared statement: the values travel apart from the text. */
  execute(options: { sql: string; values: readonly unknown[]; timeout?: number }, callback: Answer): void;
  release(): void;
  destroy(): void;
}

/** The parts of a mysql2 pool the service uses. */
export interface Mysql2Pool extends PoolOfConnections<Mysql2Connection> {
  on(event: 'connection', listener: (connection: Mysql2Connection) => void): void;
}

export interface PoolBounds {
  /** A statement waits at most this long for a free connection (then 503). */
  readonly acquireTimeoutMs: number;
  /** Closing the pool waits at most this long for connections to say goodbye. */
  readonly endTimeoutMs: number;
  /** Setting up a new connection's session waits at most this long for the server. */
  readonly sessionTimeoutMs: number;
}

/**
 * mysql2 as TypeORM's mysql driver loads it (its `driver` option), but with every pool it creates
 * made as the service needs it: each connection's session pinned before its first statement
 * (session.ts), and the waits mysql2 leaves unbounded bounded. The service, TypeORM's migration
 * runner and the key tool all open their connections through it; Sql runs on the pool it made.
 */
export interface ServiceMysqlDriver {
  createPool(options: object): Mysql2Pool;
  /** The pool it made last: its DataSource's (TypeORM makes another only after ending the one before). */
  readonly pool?: Mysql2Pool;
}

/** mysql2, loaded only for a MySQL database: the key tools and a service on SQLite start faster without it. */
const mysql2 = () => createRequire(import.meta.url)('mysql2') as typeof import('mysql2');

export function serviceMysqlDriver(bounds: PoolBounds): ServiceMysqlDriver {
  let made: Mysql2Pool | undefined;
  return {
    get pool() {
      return made;
    },
    createPool(options) {
      // The session must outlive a release: a reset would return it to the server's defaults.
      const pool = mysql2().createPool({ ...options, resetOnRelease: false }) as unknown as Mysql2Pool;
      prepareEachConnection(pool, (connection, done) => pinSession(connection, bounds.sessionTimeoutMs, done));
      // A statement waits at most this long for a free connection: a 503 to the client, not a queue that only grows.
      boundConnectionWaits(pool, bounds.acquireTimeoutMs, () =>
        Object.assign(new Error(`no database connection came free within ${bounds.acquireTimeoutMs} ms`), { code: POOL_ACQUIRE_TIMEOUT }),
      );
      // A connection left dead by a fail-over never says goodbye: the service must stop all the same.
      boundPoolEnd(pool, bounds.endTimeoutMs);
      return (made = pool);
    },
  };
}

/** The pool of a DataSource initialized on buildDataSourceOptions' MySQL options. */
export function mysqlPoolOf(options: DataSourceOptions): Mysql2Pool {
  const pool = options.type === 'mysql' ? (options.driver as Partial<ServiceMysqlDriver> | undefined)?.pool : undefined;
  if (!pool) throw new Error('Sql runs on the pool serviceMysqlDriver made for an initialized DataSource');
  return pool;
}

/**
 * Sets a new connection's session and reads it back; either failing is `done`'s error: the
 * server's refusal as SessionRefusedError, a network failure as it came (an outage).
 */
function pinSession(connection: Mysql2Connection, timeoutMs: number, done: (error: Error | null) => void): void {
  const refuse = (cause: Mysql2Error) =>
    done(cause.fatal || cause.errno === undefined ? cause : new SessionRefusedError(cause.message, { cause }));
  connection.query({ sql: SET_SESSION, timeout: timeoutMs }, (setError) => {
    if (setError) return refuse(setError);
    connection.query({ sql: READ_SESSION, timeout: timeoutMs }, (readError, rows) => {
      if (readError) return refuse(readError);
      const differences = sessionDifferences((rows as SessionSettings[])[0]);
      if (differences.length > 0) return refuse(new SessionRefusedError(`after setting it, ${differences.join('; ')}`));
      done(null);
    });
  });
}

/**
 * mysql2 answers a query that times out with an error but keeps the connection, whose protocol is
 * still waiting for that query's reply: back in the pool, it makes every later query on it time out
 * too. A silent network partition leaves every connection so; this subscriber destroys each one
 * as TypeORM's own queries (the migrations') time out. Sql does the same for the service's.
 */
@EventSubscriber()
export class DropTimedOutConnections implements EntitySubscriberInterface {
  afterQuery({ error, queryRunner }: AfterQueryEvent): Promise<void> | undefined {
    if ((error as { code?: unknown } | undefined)?.code !== 'PROTOCOL_SEQUENCE_TIMEOUT') return undefined;
    // The connection the runner holds; TypeORM fails the query only once this has settled.
    return queryRunner.connect().then((connection: Mysql2Connection) => connection.destroy());
  }
}
