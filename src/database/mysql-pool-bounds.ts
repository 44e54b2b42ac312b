import type { DataSource, EntitySubscriberInterface } from 'typeorm';
import type { AfterQueryEvent } from 'typeorm/subscriber/event/QueryEvent.js';
import { POOL_ACQUIRE_TIMEOUT } from './database-unavailable.js';

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
export class DropTimedOutConnections implements EntitySubscriberInterface {
  afterQuery({ error, queryRunner }: AfterQueryEvent): void {
    if ((error as { code?: unknown } | undefined)?.code !== 'PROTOCOL_SEQUENCE_TIMEOUT') return;
    (queryRunner as { databaseConnection?: PoolConnection }).databaseConnection?.destroy();
  }
}

/**
 * mysql2's pool lets a query wait for a free connection for ever (it has no acquire time-out):
 * while the database is silent, the queue only grows. Here a wait that passes `timeoutMs` fails
 * with POOL_ACQUIRE_TIMEOUT (a 503 to the client), and the connection it would have had goes back
 * to the pool the moment it arrives.
 */
export function boundPoolAcquire(dataSource: DataSource, timeoutMs: number): void {
  const pool = (dataSource.driver as { pool?: { getConnection: GetConnection } }).pool;
  if (!pool) return;
  const getConnection = pool.getConnection.bind(pool);
  pool.getConnection = (callback) => {
    let waiting = true;
    const timer = setTimeout(() => {
      waiting = false;
      callback(Object.assign(new Error(`no database connection came free within ${timeoutMs} ms`), { code: POOL_ACQUIRE_TIMEOUT }));
    }, timeoutMs);
    getConnection((error, connection) => {
      clearTimeout(timer);
      if (waiting) callback(error, connection);
      else connection?.release();
    });
  };
}
