/**
 * mysql2's pool where it has no public face: it cannot hold a new connection back until it is
 * ready, bounds neither the wait for a connection nor its own end, and counts its connections only
 * in private queues. Written for mysql2 3.24.6: test/database/platform-mysql2-pool.db-spec.ts pins
 * the version and checks, on a real server, that the pool still behaves as each function assumes.
 */

/** A connection of the pool, as these functions handle it. */
export interface PooledConnection {
  release(): void;
  destroy(): void;
}

type Handout<C> = (error: Error | null, connection?: C) => void;

/** A mysql2 pool, as these functions handle it. */
export interface PoolOfConnections<C extends PooledConnection> {
  getConnection(callback: Handout<C>): void;
  end(callback?: (error?: Error | null) => void): void;
  readonly config?: { connectionLimit?: number };
}

/**
 * Has `pool` run `prepare` on each connection before it first hands it out, whoever asks (mysql2's
 * own `pool.query` included): a connection `prepare` fails is destroyed unused, and the one who
 * asked for it gets the error.
 * Measured: mysql2's 'connection' event cannot hold a connection back: statements would run on refused sessions (startup, outage e2e).
 */
export function prepareEachConnection<C extends PooledConnection>(
  pool: PoolOfConnections<C>,
  prepare: (connection: C, done: (error: Error | null) => void) => void,
): void {
  const prepared = new WeakSet<C>();
  const getConnection = pool.getConnection.bind(pool);
  pool.getConnection = (callback) =>
    getConnection((error, connection) => {
      if (error || !connection || prepared.has(connection)) return callback(error, connection);
      prepare(connection, (failed) => {
        if (failed) {
          connection.destroy();
          return callback(failed);
        }
        prepared.add(connection);
        callback(null, connection);
      });
    });
}

/**
 * Has a wait for a free connection of `pool` fail after `timeoutMs` with `timedOut()`; the
 * connection it would have had goes back to the pool the moment it arrives.
 * Measured: mysql2 has no acquire time-out, its queue only grows: with this a partition's requests are 503 within 5 s (outage e2e).
 */
export function boundConnectionWaits<C extends PooledConnection>(
  pool: PoolOfConnections<C>,
  timeoutMs: number,
  timedOut: () => Error,
): void {
  const getConnection = pool.getConnection.bind(pool);
  pool.getConnection = (callback) => {
    let waiting = true;
    const timer = setTimeout(() => {
      waiting = false;
      callback(timedOut());
    }, timeoutMs);
    getConnection((error, connection) => {
      clearTimeout(timer);
      if (waiting) callback(error, connection);
      else connection?.release();
    });
  };
}

/**
 * Has closing `pool` destroy, after `timeoutMs`, the connections that have not said goodbye to the
 * server by then, and call back.
 * Measured: mysql2's end waits for ever behind an unanswered statement (the contract test): no stop after a fail-over without it.
 */
export function boundPoolEnd<C extends PooledConnection>(pool: PoolOfConnections<C>, timeoutMs: number): void {
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
      const connections = internals(pool)._allConnections;
      for (let i = 0; connections && i < connections.length; i++) connections.get(i).destroy();
      finish();
    }, timeoutMs);
    end(finish);
  };
}

/** How a pool's connections are used right now. */
export interface PoolUse {
  readonly open: number;
  readonly idle: number;
  readonly limit: number;
  /** Statements waiting for a free connection. */
  readonly waiting: number;
}

/**
 * How `pool` is used, read from mysql2's queues defensively: a version that moved them reads as zeros.
 * Measured: mysql2 counts connections nowhere public, and its events miss those it closes itself (idle past idleTimeout).
 */
export function poolUse(pool: PoolOfConnections<PooledConnection>): PoolUse {
  const { _allConnections, _freeConnections, _connectionQueue } = internals(pool);
  return {
    open: _allConnections?.length ?? 0,
    idle: _freeConnections?.length ?? 0,
    limit: pool.config?.connectionLimit ?? 0,
    waiting: _connectionQueue?.length ?? 0,
  };
}

/** mysql2's private queues: every connection, the idle ones, and the callbacks waiting for one. */
interface PoolInternals {
  readonly _allConnections?: { readonly length: number; get(index: number): PooledConnection };
  readonly _freeConnections?: { readonly length: number };
  readonly _connectionQueue?: { readonly length: number };
}

function internals(pool: object): PoolInternals {
  return pool as PoolInternals;
}
