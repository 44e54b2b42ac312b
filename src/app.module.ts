import { type DynamicModule, Module, type Provider } from '@nestjs/common';
import { APP_FILTER, APP_GUARD } from '@nestjs/core';
import { ApiKeyGuard } from './auth/api-key.guard.js';
import { AuthModule } from './auth/auth.module.js';
import { ScopeGuard } from './auth/scope.guard.js';
import type { AppConfig } from './config/app-config.js';
import type { Clock } from './config/clock.js';
import { ConfigModule } from './config/config.module.js';
import { DatabaseModule } from './database/database.module.js';
import type { DocumentContribution } from './openapi/openapi.js';
import { HealthModule } from './health/health.module.js';
import { ApiExceptionFilter } from './errors/api-exception.filter.js';
import { ServerModule } from './http/http.module.js';
import { LoggingModule } from './logging/logging.module.js';
import { MetricsModule } from './metrics/metrics.module.js';
import { PetsModule } from './pets/pets.module.js';
import { RateLimitGuard } from './rate-limit/rate-limit.guard.js';
import { RateLimitModule } from './rate-limit/rate-limit.module.js';
import { StoreModule } from './store/store.module.js';
import { describeEventDeliveries } from './webhooks/event-document.js';
import { WebhooksModule } from './webhooks/webhooks.module.js';
import { RequestLogModule } from './request-log/request-log.module.js';
import { SandboxesModule } from './sandboxes/sandboxes.module.js';

/**
 * What every request of an operation passes through, in the order it runs: who is asking, whether
 * they may ask again now, whether their key may do this; and what renders every error (what they
 * sent is validated by the parameters that take it: @ValidBody(), @ValidQuery()). Before these,
 * createApp mounts the edge (request id, headers, deadline, log line); after the guards, a route's
 * own interceptors (JSON body, idempotency, deprecation headers).
 */
const REQUEST_PIPELINE: Provider[] = [
  { provide: APP_GUARD, useExisting: ApiKeyGuard },
  { provide: APP_GUARD, useExisting: RateLimitGuard },
  { provide: APP_GUARD, useClass: ScopeGuard },
  { provide: APP_FILTER, useClass: ApiExceptionFilter },
];

/**
 * What the features add to the OpenAPI document beyond their controllers and DTOs, in the order
 * applied: createApp and the `openapi` tool both build the document with it.
 */
export const DOCUMENT_CONTRIBUTIONS: readonly DocumentContribution[] = [describeEventDeliveries];

@Module({})
export class AppModule {
  /** The whole service for one validated configuration; main.ts and the e2e tests both build it. */
  static forRoot(config: AppConfig, clock?: Clock): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config, clock),
        LoggingModule.forRoot(config),
        DatabaseModule,
        AuthModule,
        RateLimitModule,
        ServerModule,
        PetsModule,
        StoreModule,
        WebhooksModule,
        RequestLogModule,
        SandboxesModule,
        HealthModule,
        MetricsModule,
      ],
      providers: REQUEST_PIPELINE,
    };
  }
}
