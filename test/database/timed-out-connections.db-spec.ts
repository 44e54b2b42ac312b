import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { pino } from 'pino';
import { DataSource } from 'typeorm';
import { loadAppConfig } from '../../src/config/app-config.js';
import { buildDataSourceOptions } from '../../src/database/data-source-options.js';
import { mysqlPoolOf } from '../../src/database/mysql-pool.js';
import { TypeOrmLogger } from '../../src/logging/typeorm-logger.js';
import { poolUse } from '../../src/platform/mysql2-pool.js';
import { TcpProxy } from '../e2e/support/tcp-proxy.js';
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from '../e2e/support/test-database.js';

/**
 * A statement of TypeORM's own (the migrations') that times out leaves its connection waiting for
 * an answer that would answer the next statement: DropTimedOutConnections destroys it instead.
 */
describe.each(DATABASE_KINDS.filter((kind) => kind === 'mysql'))('a TypeORM statement that times out on %s', (kind) => {
  let database: TestDatabase;
  let proxy: TcpProxy;
  let dataSource: DataSource;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
    const url = new URL(database.url);
    proxy = await TcpProxy.start(url.hostname, Number(url.port || 3306));
    url.port = String(proxy.port);
    const options = buildDataSourceOptions(loadAppConfig({ DATABASE_URL: url.href, API_KEYS: 'unused' }).database);
    dataSource = await new DataSource({
      ...options,
      maxQueryExecutionTime: 300,
      logger: new TypeOrmLogger(pino({ enabled: false })),
    } as typeof options).initialize();
  });
  afterAll(async () => {
    proxy?.restore();
    await dataSource?.destroy();
    await proxy?.close();
    await database?.drop();
  });

  it('fails, and its connection leaves the pool before the failure is told', async () => {
    await dataSource.query('SELECT 1');
    expect(poolUse(mysqlPoolOf(dataSource.options))).toMatchObject({ open: 1, idle: 1 });
    proxy.partition();
    await expect(dataSource.query('SELECT 2')).rejects.toMatchObject({ driverError: { code: 'PROTOCOL_SEQUENCE_TIMEOUT' } });
    expect(poolUse(mysqlPoolOf(dataSource.options))).toMatchObject({ open: 0, idle: 0 });
  });
});
