import { type DataSource, type EntitySubscriberInterface, EventSubscriber } from 'typeorm';
import type { AfterQueryEvent } from 'typeorm/subscriber/event/QueryEvent.js';
import { POOL_ACQUIRE_TIMEOUT } from '../errors/database-unavailable.js';

/** The parts of mysql2's pool and pool connections used here. */
interface PoolConnection {
  release(): void;
  destroy(): void;
}
type GetConnection = (callback: (error: Error | null, connection?: PoolConnection) => void) => void;

/**
 * mysql2 answers a query that times out with an error but keeps the connection, whose protocol is
 * still waiting for that query's reply: back in the pool, it makes every later query on it time out
 * too. A silent network partition leaves every connection so; this subscriber destroys each one
 * as its query times out, and the pool opens fresh ones when the database answers again.
 */
@EventSubscriber()
export class DropTimedOutConnections implements EntitySubscriberInterface {
  afterQuery({ error, queryRunner }: AfterQueryEvent): void {
    if ((error as { code?: unknown } | undefined)?.code !== 'PROTOCOL_SEQUENCE_TIMEOUT') return;
    (queryRunner as { databaseConnection?: PoolConnection }).databaseConnection?.destroy();
  }
}

interface Mysql2Pool {
  getConnection: GetConnection;
  end(callback?: (error?: Error | null) => void): void;
  /** Not public API; read only to close what a graceful end cannot. */
  _allConnections?: { length: number; get(index: number): PoolConnection };
}

/**
 * Two waits that mysql2's pool leaves unbounded, bounded:
 * - A query may wait for a free connection for ever (the pool has no acquire time-out): while the
 *   database is silent, the queue only grows. A wait past `acquireTimeoutMs` fails with
 *   POOL_ACQUIRE_TIMEOUT (a 503 to the client), and the connection it would have had goes back to
 *   the pool the moment it arrives.
 * - Closing the pool waits for every connection to say goodbye to the server; a connection left
 *   dead by a fail-over never does, and the service would never stop. Past `endTimeoutMs` the
 *   remaining connections are destroyed.
 */
export function boundMysqlPool(
  dataSource: DataSource,
  { acquireTimeoutMs, endTimeoutMs }: { acquireTimeoutMs: number; endTimeoutMs: number },
): void {
  const pool = (dataSource.driver as { pool?: Mysql2Pool }).pool;
  if (!pool) return;
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
