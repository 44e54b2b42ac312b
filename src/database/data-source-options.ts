import { DataSource, type DataSourceOptions } from 'typeorm';
import type { DatabaseConfig } from '../config/app-config.js';
import { CreatePets1795219200000 } from './migrations/1795219200000-CreatePets.js';
import { CreateApiKeys1795219300000 } from './migrations/1795219300000-CreateApiKeys.js';
import { CreateIdempotencyRecords1795219400000 } from './migrations/1795219400000-CreateIdempotencyRecords.js';
import { CreateOrders1795219500000 } from './migrations/1795219500000-CreateOrders.js';
import { AddApiKeyScopes1795219600000 } from './migrations/1795219600000-AddApiKeyScopes.js';
import { AddApiKeyExpiry1795219700000 } from './migrations/1795219700000-AddApiKeyExpiry.js';
import { OneSuccessorPerKey1795219800000 } from './migrations/1795219800000-OneSuccessorPerKey.js';
import { ApiKeyTimesInMilliseconds1795219900000 } from './migrations/1795219900000-ApiKeyTimesInMilliseconds.js';
import { CreateWebhooks1795220000000 } from './migrations/1795220000000-CreateWebhooks.js';
import { DropTimedOutConnections } from './mysql-pool-bounds.js';

export const MIGRATIONS = [
  CreatePets1795219200000,
  CreateApiKeys1795219300000,
  CreateIdempotencyRecords1795219400000,
  CreateOrders1795219500000,
  AddApiKeyScopes1795219600000,
  AddApiKeyExpiry1795219700000,
  OneSuccessorPerKey1795219800000,
  ApiKeyTimesInMilliseconds1795219900000,
  CreateWebhooks1795220000000,
];

/**
 * The one place TypeORM options are built: the application (DatabaseModule), TypeORM's CLI
 * (ormconfig.ts) and the key tool all call it, so they always talk to the same schema the same way.
 * The application's entities come from its feature modules (`TypeOrmModule.forFeature`); a
 * DataSource outside Nest names those it uses (src/entities.ts has them all).
 */
export function buildDataSourceOptions(database: DatabaseConfig, entities: readonly (new () => object)[] = []): DataSourceOptions {
  const common = {
    entities: entities.slice(),
    migrations: MIGRATIONS,
    // The schema is owned by the migrations alone.
    synchronize: false,
    migrationsRun: false,
  } as const;

  if (database.kind === 'mysql') {
    return {
      ...common,
      type: 'mysql',
      url: database.url,
      // Connection character set: names with emoji must arrive as 4-byte UTF-8.
      charset: 'utf8mb4_unicode_ci',
      timezone: 'Z',
      // BIGINT columns come back as JSON-ready numbers (every stored value is at most 2^53-1),
      // not as the strings TypeORM asks mysql2 for by default.
      bigNumberStrings: false,
      poolSize: database.poolSize,
      // A database that cannot be reached must turn into a 503 within 5 s, never a hang: new
      // connections give up after 3 s, and a query on a connection that went silent after 4 s,
      // which then leaves the pool (DropTimedOutConnections). The wait for a pool connection is
      // bounded too (DatabaseModule), and src/server/edge.ts (the answer deadline) is the backstop of it all.
      connectTimeout: 3_000,
      enableQueryTimeout: true,
      maxQueryExecutionTime: 4_000,
      subscribers: [DropTimedOutConnections],
      // mysql2 captures a stack trace for every query, to show the caller when one fails: about 5%
      // of a listPets' CPU (bench/). A failed query is logged by its message and SQL anyway.
      // Several statements to a query: a create's transaction goes in one round trip (Sql.write).
      // Every statement is a constant of a repository and every value a placeholder that the driver
      // escapes, so no text a client sends becomes a statement (docs/SECURITY.md).
      extra: { trace: false, multipleStatements: true },
    };
  }
  return {
    ...common,
    type: 'better-sqlite3',
    database: database.file,
    enableWAL: database.file !== ':memory:',
  };
}

/**
 * A DataSource on `options`. The entities declare the column types the migrations make on MySQL
 * (an event's payload is MEDIUMTEXT there, TEXT on SQLite); SQLite takes any type name (MEDIUMTEXT
 * has its TEXT affinity), but TypeORM refuses to build an entity with a type it does not list for SQLite.
 */
export function createDataSource(options: DataSourceOptions): DataSource {
  const dataSource = new DataSource(options);
  if (options.type === 'better-sqlite3') dataSource.driver.supportedDataTypes.push('mediumtext');
  return dataSource;
}
