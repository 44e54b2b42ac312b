import { afterAll, beforeAll } from '@jest/globals';
import type { Provider } from '@nestjs/common';
import { Test, type TestingModule } from '@nestjs/testing';
import { getDataSourceToken, TypeOrmModule } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { loadAppConfig } from '../../../src/config/app-config.js';
import { buildDataSourceOptions, createDataSource } from '../../../src/database/data-source-options.js';
import { Sql } from '../../../src/database/sql.js';
import { ENTITIES } from '../../../src/entities.js';
import { createTestDatabase, type DatabaseKind, type TestDatabase } from '../../e2e/support/test-database.js';

export interface DatabaseContext {
  module: TestingModule;
  dataSource: DataSource;
  /** The service's way to run statements, on that connection. */
  sql: Sql;
}

/**
 * For a file's tests: a fresh database of `kind` with the migrations' schema, the TypeORM connection
 * the service would open, Sql and `providers` on it (no service, no HTTP); dropped after the tests.
 */
export function useDatabase(kind: DatabaseKind, providers: Provider[]): DatabaseContext {
  const context = {} as DatabaseContext;
  let database: TestDatabase | undefined;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
    const { database: options } = loadAppConfig({ DATABASE_URL: database.url, API_KEYS: 'unused' });
    context.module = await Test.createTestingModule({
      imports: [
        TypeOrmModule.forRootAsync({
          useFactory: () => ({ ...buildDataSourceOptions(options, ENTITIES), migrationsRun: true }),
          dataSourceFactory: async (dataSourceOptions) => createDataSource(dataSourceOptions!).initialize(),
        }),
      ],
      providers: [Sql, ...providers],
    }).compile();
    context.dataSource = context.module.get(getDataSourceToken());
    context.sql = context.module.get(Sql);
  });
  afterAll(async () => {
    await context.module?.close();
    await database?.drop();
  });
  return context;
}
