import { type DynamicModule, Global, Module } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import type { AppConfig } from '../config/app-config.js';
import { createLogger, PINO_LOGGER } from './logger.js';

/**
 * Logging through nestjs-pino: Nest's Logger (and so every `new Logger(...)` in the code) writes
 * through the same pino logger as the request lines. Its per-request middleware is not mounted
 * (`forRoutes: []`): it binds a child logger to every request through AsyncLocalStorage, a cost per
 * request for what the lines that concern a request already carry: its id. It stays for its Logger,
 * the kept adapter from Nest's LoggerService (message, context, error) to pino; pino-http is its peer.
 */
@Global()
@Module({})
export class LoggingModule {
  static forRoot(config: AppConfig): DynamicModule {
    const logger = createLogger(config);
    return {
      module: LoggingModule,
      imports: [LoggerModule.forRoot({ pinoHttp: { logger }, useExisting: true, forRoutes: [] })],
      providers: [{ provide: PINO_LOGGER, useValue: logger }],
      exports: [PINO_LOGGER],
    };
  }
}
