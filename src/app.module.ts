import { type DynamicModule, Module } from '@nestjs/common';
import { AuthModule } from './auth/auth.module.js';
import type { AppConfig } from './config/app-config.js';
import { ConfigModule } from './config/config.module.js';
import { DatabaseModule } from './database/database.module.js';
import { HealthModule } from './health/health.module.js';
import { HttpModule } from './http/http.module.js';
import { LoggingModule } from './logging/logging.module.js';
import { MetricsModule } from './metrics/metrics.module.js';
import { PetsModule } from './pets/pets.module.js';
import { RateLimitModule } from './rate-limit/rate-limit.module.js';
import { RedisModule } from './redis/redis.module.js';
import { StoreModule } from './store/store.module.js';

@Module({})
export class AppModule {
  /** The whole service for one validated configuration; main.ts and the e2e tests both build it. */
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        LoggingModule.forRoot(config),
        DatabaseModule,
        RedisModule,
        AuthModule,
        RateLimitModule,
        HttpModule,
        PetsModule,
        StoreModule,
        HealthModule,
        MetricsModule,
      ],
    };
  }
}
