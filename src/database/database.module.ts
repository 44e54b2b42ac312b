import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { HttpLogger } from 'pino-http';
import { AppConfig } from '../config/app-config.js';
import { HTTP_LOGGER } from '../logging/logging.module.js';
import { TypeOrmLogger } from '../logging/typeorm-logger.js';
import { buildDataSourceOptions } from './data-source-options.js';
import { boundPoolAcquire } from './mysql-pool-bounds.js';

/** How long a query may wait for a free MySQL pool connection before it is a 503. */
const POOL_ACQUIRE_TIMEOUT_MS = 3_000;

@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      inject: [AppConfig, HTTP_LOGGER],
      useFactory: (config: AppConfig, httpLogger: HttpLogger) => ({
        ...buildDataSourceOptions(config.database),
        logger: new TypeOrmLogger(httpLogger.logger),
        migrationsRun: config.migrationsRun,
        // TypeORM's default is 9 retries 3 s apart. A database that is not there at start stops
        // the start within about 15 s instead (3 attempts of at most 3 s, 2 s apart), so that an
        // orchestrator sees the failure and a deploy that raced the database still gets a chance.
        retryAttempts: 2,
        retryDelay: 2_000,
      }),
      dataSourceFactory: async (options) => {
        const dataSource = await new DataSource(options!).initialize();
        boundPoolAcquire(dataSource, POOL_ACQUIRE_TIMEOUT_MS);
        return dataSource;
      },
    }),
  ],
})
export class DatabaseModule {}
