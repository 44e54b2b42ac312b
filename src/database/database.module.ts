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
        // TypeORM's default is 9 retries 3 s apart; a database that is not there at start should
        // stop the start quickly and plainly instead.
        retryAttempts: 1,
        retryDelay: 3_000,
      }),
    }),
  ],
})
export class DatabaseModule {}
