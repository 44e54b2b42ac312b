import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import type { Logger } from 'pino';
import { AppConfig } from '../config/app-config.js';
import { PINO_LOGGER } from '../logging/logging.module.js';
import { TypeOrmLogger } from '../logging/typeorm-logger.js';
import { buildDataSourceOptions, createDataSource } from './data-source-options.js';
import { boundMysqlPool } from './mysql-pool-bounds.js';
import { Sql } from './sql.js';

/** A query waits at most this long for a free MySQL pool connection (then 503); closing the pool, at most this long. */
const POOL_BOUNDS = { acquireTimeoutMs: 3_000, endTimeoutMs: 2_000 };

/** TypeORM's connection, bounded, and Sql, which runs the hot paths' statements on it, for every module. */
@Global()
@Module({
  providers: [Sql],
  exports: [Sql],
  imports: [
    TypeOrmModule.forRootAsync({
      inject: [AppConfig, PINO_LOGGER],
      useFactory: (config: AppConfig, logger: Logger) => ({
        ...buildDataSourceOptions(config.database),
        // Each feature module registers its entities (TypeOrmModule.forFeature).
        autoLoadEntities: true,
        logger: new TypeOrmLogger(logger),
        migrationsRun: config.migrationsRun,
        // TypeORM's default is 9 retries 3 s apart. A database that is not there at start stops
        // the start within about 15 s instead (3 attempts of at most 3 s, 2 s apart), so that an
        // orchestrator sees the failure and a deploy that raced the database still gets a chance.
        retryAttempts: 2,
        retryDelay: 2_000,
      }),
      dataSourceFactory: async (options) => {
        const dataSource = await createDataSource(options!).initialize();
        boundMysqlPool(dataSource, POOL_BOUNDS);
        return dataSource;
      },
    }),
  ],
})
export class DatabaseModule {}
