import mysql2 from 'mysql2';
import { type EntitySubscriberInterface, EventSubscriber } from 'typeorm';
import type { AfterQueryEvent } from 'typeorm/subscriber/event/QueryEvent.js';
import { POOL_ACQUIRE_TIMEOUT } from '../errors/database-unavailable.js';
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
export interface Mysql2Pool {
  getConnection(callback: (error: Mysql2Error | null, connection?: Mysql2Connection) => void): void;
  end(callback?: (error?: Error | null) => void): void;
  on(event: 'connection', listener: (connection: Mysql2Connection) => void): void;
  // Not public API: read only to close what a graceful end cannot, and for the metrics (poolUse).
  readonly config?: { connectionLimit?: number };
  _allConnections?: { length: number; get(index: number): Mysql2Connection };
  _freeConnections?: { length: number };
  _connectionQueue?: { length: number };
}

/** How a pool's connections are used right now. */
export interface PoolUse {
  readonly open: number;
  readonly idle: number;
  readonly limit: number;
  /** Statements waiting for a free connection. */
  readonly waiting: number;
}

/** How `pool` is used, read from mysql2's internals defensively: a version that moved them reads as zeros. */
export function poolUse(pool: Mysql2Pool): PoolUse {
  return {
    open: pool._allConnections?.length ?? 0,
    idle: pool._freeConnections?.length ?? 0,
    limit: pool.config?.connectionLimit ?? 0,
    waiting: pool._connectionQueue?.length ?? 0,
  };
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
 * runner and the key tool all open their connections through it.
 */
export function serviceMysqlDriver(bounds: PoolBounds): { createPool(options: object): Mysql2Pool } {
  return {
    createPool(options) {
      // The session must outlive a release: a reset would return it to the server's defaults.
      const pool = mysql2.createPool({ ...options, resetOnRelease: false }) as unknown as Mysql2Pool;
      pinSessions(pool, bounds.sessionTimeoutMs);
      boundWaits(pool, bounds);
      return pool;
    },
  };
}

/**
 * Sets each new connection's session and reads it back before the connection is handed out; a
 * connection on which either fails is closed unused, and the one who asked for it gets the error:
 * the server's refusal as SessionRefusedError, a network failure as it came (an outage).
 */
function pinSessions(pool: Mysql2Pool, timeoutMs: number): void {
  const pinned = new WeakSet<Mysql2Connection>();
  const getConnection = pool.getConnection.bind(pool);
  pool.getConnection = (callback) =>
    getConnection((error, connection) => {
      if (error || !connection || pinned.has(connection)) return callback(error, connection);
      const refuse = (cause: Mysql2Error) => {
        connection.destroy();
        callback(cause.fatal || cause.errno === undefined ? cause : new SessionRefusedError(cause.message, { cause }));
      };
      connection.query({ sql: SET_SESSION, timeout: timeoutMs }, (setError) => {
        if (setError) return refuse(setError);
        connection.query({ sql: READ_SESSION, timeout: timeoutMs }, (readError, rows) => {
          if (readError) return refuse(readError);
          const differences = sessionDifferences((rows as SessionSettings[])[0]);
          if (differences.length > 0) return refuse(new SessionRefusedError(`after setting it, ${differences.join('; ')}`));
          pinned.add(connection);
          callback(null, connection);
        });
      });
    });
}

/**
 * Two waits that mysql2's pool leaves unbounded, bounded:
 * - A statement may wait for a free connection for ever (the pool has no acquire time-out): while
 *   the database is silent, the queue only grows. A wait past `acquireTimeoutMs` fails with
 *   POOL_ACQUIRE_TIMEOUT (a 503 to the client), and the connection it would have had goes back to
 *   the pool the moment it arrives.
 * - Closing the pool waits for every connection to say goodbye to the server; a connection left
 *   dead by a fail-over never does, and the service would never stop. Past `endTimeoutMs` the
 *   remaining connections are destroyed.
 */
function boundWaits(pool: Mysql2Pool, { acquireTimeoutMs, endTimeoutMs }: PoolBounds): void {
  const getConnection = pool.getConnection.bind(pool);
  pool.getConnection = (callback) => {
    let waiting = true;
    const timer = setTimeout(() => {
      waiting = false;
      callback(Object.assign(new Error(`no database connection came free within ${acquireTimeoutMs} ms`), { code: POOL_ACQUIRE_TIMEOUT }));
    }, acquireTimeoutMs);
    getConnection((error, connection) => {
      clearTimeout(timer);
      if (waiting) callback(error, connection);
      else connection?.release();
    });
  };
  const end = pool.end.bind(pool);
  pool.end = (callback) => {
    let ended = false;
    const finish = (error?: Error | null) => {
      if (ended) return;
      ended = true;
      clearTimeout(timer);
      callback?.(error);
    };
    const timer = setTimeout(() => {
      const connections = pool._allConnections;
      for (let i = 0; connections && i < connections.length; i++) connections.get(i).destroy();
      finish();
    }, endTimeoutMs);
    end(finish);
  };
}

/**
 * mysql2 answers a query that times out with an error but keeps the connection, whose protocol is
 * still waiting for that query's reply: back in the pool, it makes every later query on it time out
 * too. A silent network partition leaves every connection so; this subscriber destroys each one
 * as TypeORM's own queries (the migrations') time out. Sql does the same for the service's.
 */
@EventSubscriber()
export class DropTimedOutConnections implements EntitySubscriberInterface {
  afterQuery({ error, queryRunner }: AfterQueryEvent): void {
    if ((error as { code?: unknown } | undefined)?.code !== 'PROTOCOL_SEQUENCE_TIMEOUT') return;
    (queryRunner as { databaseConnection?: Mysql2Connection }).databaseConnection?.destroy();
  }
}
