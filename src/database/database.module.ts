import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import type { Logger } from 'pino';
import { AppConfig } from '../config/app-config.js';
import { PINO_LOGGER } from '../logging/logger.js';
import { TypeOrmLogger } from '../logging/typeorm-logger.js';
import { buildDataSourceOptions, createDataSource } from './data-source-options.js';
import { Sql } from './sql.js';
import { UnitOfWork } from './unit-of-work.js';

/**
 * TypeORM's connection, its sessions pinned and its waits bounded; Sql, which runs every
 * repository's statements on it; and the UnitOfWork every write runs through.
 */
@Global()
@Module({
  providers: [Sql, UnitOfWork],
  exports: [Sql, UnitOfWork],
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
      dataSourceFactory: async (options) => createDataSource(options!).initialize(),
    }),
  ],
})
export class DatabaseModule {}
