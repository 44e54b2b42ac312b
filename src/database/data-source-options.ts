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
import { ExactClientText1795220100000 } from './migrations/1795220100000-ExactClientText.js';
import { Lifecycle1795220200000 } from './migrations/1795220200000-Lifecycle.js';
import { CompleteMeansDelivered1795220300000 } from './migrations/1795220300000-CompleteMeansDelivered.js';
import { Metadata1795220400000 } from './migrations/1795220400000-Metadata.js';
import { RequestLog1795220500000 } from './migrations/1795220500000-RequestLog.js';
import { StoredAnswersOfAnySize1795220600000 } from './migrations/1795220600000-StoredAnswersOfAnySize.js';
import { WebhookEndpointMakers1795220650000 } from './migrations/1795220650000-WebhookEndpointMakers.js';
import { ExactComparedText1795220700000 } from './migrations/1795220700000-ExactComparedText.js';
import { RequestLogCount1795220800000 } from './migrations/1795220800000-RequestLogCount.js';
import { Sandboxes1795221000000 } from './migrations/1795221000000-Sandboxes.js';
import { PetsClusteredByEnvironment1795221100000 } from './migrations/1795221100000-PetsClusteredByEnvironment.js';
import { acceptColumnType } from '../platform/typeorm-column-types.js';
import { DropTimedOutConnections, type PoolBounds, serviceMysqlDriver } from './mysql-pool.js';

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
  ExactClientText1795220100000,
  Lifecycle1795220200000,
  CompleteMeansDelivered1795220300000,
  Metadata1795220400000,
  RequestLog1795220500000,
  StoredAnswersOfAnySize1795220600000,
  WebhookEndpointMakers1795220650000,
  ExactComparedText1795220700000,
  RequestLogCount1795220800000,
  Sandboxes1795221000000,
  PetsClusteredByEnvironment1795221100000,
];

/**
 * A statement waits at most 3 s for a free MySQL pool connection (then 503); closing the pool, at
 * most 2 s; a new connection's session, at most as long as a statement.
 */
const POOL_BOUNDS: PoolBounds = { acquireTimeoutMs: 3_000, endTimeoutMs: 2_000, sessionTimeoutMs: 4_000 };

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
      // mysql2, with every connection's session pinned and its waits bounded (mysql-pool.ts).
      driver: serviceMysqlDriver(POOL_BOUNDS),
      url: database.url,
      // The handshake's character set; the session pins it again, for servers that ignore the handshake.
      charset: 'utf8mb4_unicode_ci',
      timezone: 'Z',
      // BIGINT columns come back as JSON-ready numbers (every stored value is at most 2^53-1),
      // not as the strings TypeORM asks mysql2 for by default.
      bigNumberStrings: false,
      poolSize: database.poolSize,
      // A database that cannot be reached must turn into a 503 within 5 s, never a hang: new
      // connections give up after 3 s, and a query on a connection that went silent after 4 s,
      // which then leaves the pool (DropTimedOutConnections). The wait for a pool connection is
      // bounded too (DatabaseModule), and src/http/edge.ts (the answer deadline) is the backstop of it all.
      connectTimeout: 3_000,
      enableQueryTimeout: true,
      maxQueryExecutionTime: 4_000,
      subscribers: [DropTimedOutConnections],
      // mysql2 captures a stack trace for every query, to show the caller when one fails: about 5%
      // of a listPets' CPU (bench/). A failed query is logged by its message and SQL anyway.
      // Several statements to a query, for Sql.write alone: a create's transaction in one round trip,
      // its text the repositories' constants and values as literals no setting can reinterpret
      // (sql-literal.ts); every other statement is a prepared one, which runs one statement only.
      // Prepared statements kept per connection: every constant of the repositories, and the newest
      // of the claim lists (one per length); the server holds at most 16,382 for all its clients.
      extra: { trace: false, multipleStatements: true, maxPreparedStatements: 100 },
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
  if (options.type === 'better-sqlite3') acceptColumnType(dataSource, 'mediumtext');
  return dataSource;
}
