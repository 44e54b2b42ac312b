import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AppConfig } from '../config/app-config.js';
import { buildDataSourceOptions } from './data-source-options.js';

@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      inject: [AppConfig],
      useFactory: (config: AppConfig) => ({
        ...buildDataSourceOptions(config.database),
        migrationsRun: config.migrationsRun,
        // TypeORM's default is 9 retries 3 s apart. A database that is not there at start stops
        // the start within about 15 s instead (3 attempts of at most 3 s, 2 s apart), so that an
        // orchestrator sees the failure and a deploy that raced the database still gets a chance.
        retryAttempts: 2,
        retryDelay: 2_000,
      }),
    }),
  ],
})
export class DatabaseModule {}
