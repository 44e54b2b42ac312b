import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import mysql2 from 'mysql2';
import {
  boundConnectionWaits,
  boundPoolEnd,
  type PooledConnection,
  type PoolOfConnections,
  poolUse,
  prepareEachConnection,
} from '../../src/platform/mysql2-pool.js';
import { mysqlServerUrl } from '../e2e/support/global-setup.js';
import { TcpProxy } from '../e2e/support/tcp-proxy.js';
import { DATABASE_KINDS } from '../e2e/support/test-database.js';
import { installedVersion } from '../unit/support/installed-version.js';

interface Connection extends PooledConnection {
  query(sql: string, callback: (error: Error | null) => void): void;
}
type Pool = PoolOfConnections<Connection> & { query(sql: string, callback: (error: Error | null) => void): void };

// Checked without a server too: the rest below needs one.
it('is the mysql2 version src/platform/mysql2-pool.ts was written for', () => {
  expect(installedVersion('mysql2')).toBe('3.24.6');
});

/**
 * What src/platform/mysql2-pool.ts assumes of mysql2's pool, on a real server: every connection is
 * handed out through the getConnection found on the pool (its own query included), its private
 * queues count the connections, and its end waits for every connection's goodbye. A new version may
 * do otherwise: check each, then move the pin.
 */
describe.each(DATABASE_KINDS.filter((kind) => kind === 'mysql'))('mysql2, as src/platform/mysql2-pool.ts uses it, on %s', () => {
  const pools: Pool[] = [];
  const poolOf = (options: { connectionLimit: number; port?: number }): Pool => {
    // The server's URL whole: a database container (TEST_DATABASE=container) has a password.
    const { hostname, port, username, password } = new URL(mysqlServerUrl());
    const pool = mysql2.createPool({
      host: hostname,
      port: options.port ?? Number(port || 3306),
      user: decodeURIComponent(username),
      password: decodeURIComponent(password),
      connectionLimit: options.connectionLimit,
    }) as unknown as Pool;
    pools.push(pool);
    return pool;
  };
  const connection = (pool: Pool) =>
    new Promise<Connection>((resolve, reject) => pool.getConnection((error, handed) => (error ? reject(error) : resolve(handed!))));
  const query = (pool: Pool, sql: string) =>
    new Promise<void>((resolve, reject) => pool.query(sql, (error) => (error ? reject(error) : resolve())));

  afterEach(async () => {
    await Promise.all(pools.splice(0).map((pool) => new Promise((ended) => pool.end(ended))));
  });

  it("hands every connection out through the pool's own getConnection, its query included, once prepared", async () => {
    const pool = poolOf({ connectionLimit: 1 });
    const prepared: Connection[] = [];
    prepareEachConnection(pool, (connection, done) => {
      prepared.push(connection);
      connection.query('SELECT 1', done);
    });
    await query(pool, 'SELECT 1');
    await query(pool, 'SELECT 2');
    const held = await connection(pool);
    expect(prepared).toEqual([held]);
    held.release();
  });

  it('destroys a connection its preparation refused, and the pool then counts it no more', async () => {
    const pool = poolOf({ connectionLimit: 1 });
    const refused = new Error('refused');
    prepareEachConnection(pool, (_connection, done) => done(refused));
    await expect(connection(pool)).rejects.toBe(refused);
    expect(poolUse(pool)).toEqual({ open: 0, idle: 0, limit: 1, waiting: 0 });
  });

  it('counts its open, idle and waiting connections in the queues poolUse reads', async () => {
    const pool = poolOf({ connectionLimit: 2 });
    const [first, second] = await Promise.all([connection(pool), connection(pool)]);
    expect(poolUse(pool)).toEqual({ open: 2, idle: 0, limit: 2, waiting: 0 });
    const third = connection(pool);
    expect(poolUse(pool)).toEqual({ open: 2, idle: 0, limit: 2, waiting: 1 });
    first.release();
    (await third).release();
    expect(poolUse(pool)).toEqual({ open: 2, idle: 1, limit: 2, waiting: 0 });
    second.release();
    expect(poolUse(pool)).toEqual({ open: 2, idle: 2, limit: 2, waiting: 0 });
  });

  it('gives up a wait for a free connection at the bound, and takes back the connection that comes after', async () => {
    const pool = poolOf({ connectionLimit: 1 });
    const timedOut = new Error('timed out');
    boundConnectionWaits(pool, 100, () => timedOut);
    const held = await connection(pool);
    const askedAt = Date.now();
    await expect(connection(pool)).rejects.toBe(timedOut);
    expect(Date.now() - askedAt).toBeLessThan(1_000);
    held.release();
    // The late connection comes after a turn or two of the event loop; within a second at most.
    for (const until = Date.now() + 1_000; poolUse(pool).idle === 0 && Date.now() < until;)
      await new Promise((turn) => setTimeout(turn, 10));
    expect(poolUse(pool)).toEqual({ open: 1, idle: 1, limit: 1, waiting: 0 });
  });

  describe('when its connections never say goodbye', () => {
    let proxy: TcpProxy;
    beforeAll(async () => {
      const { hostname, port } = new URL(mysqlServerUrl());
      proxy = await TcpProxy.start(hostname, Number(port || 3306));
    });
    afterAll(async () => proxy.close());

    it('waits for ever on its own for a connection whose statement is never answered, and ends at the bound when bounded', async () => {
      const unbounded = poolOf({ connectionLimit: 1, port: proxy.port });
      const bounded = poolOf({ connectionLimit: 1, port: proxy.port });
      pools.splice(0);
      boundPoolEnd(bounded, 200);
      const busy = await Promise.all([connection(unbounded), connection(bounded)]);
      proxy.partition();
      for (const held of busy) held.query('SELECT 1', () => undefined);
      const endedAt = { unbounded: 0, bounded: 0 };
      const startedAt = Date.now();
      unbounded.end(() => (endedAt.unbounded = Date.now()));
      await new Promise<void>((ended) => bounded.end(() => ended()));
      endedAt.bounded = Date.now();
      await new Promise((wait) => setTimeout(wait, 500));
      expect(endedAt.bounded - startedAt).toBeLessThan(1_000);
      expect(endedAt.unbounded).toBe(0);
      proxy.restore();
    });
  });
});
