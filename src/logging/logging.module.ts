import { type DynamicModule, Global, Module } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import type { AppConfig } from '../config/app-config.js';
import { createHttpLogger } from './http-logger.js';

/** The request logger, mounted by createApp ahead of everything so that every request is logged. */
export const HTTP_LOGGER = Symbol('HTTP_LOGGER');

/**
 * Logging through nestjs-pino. Nest's Logger (and so every `new Logger(...)` in the code) writes
 * through the same pino logger as the request lines, bound to the request it runs in.
 */
@Global()
@Module({})
export class LoggingModule {
  static forRoot(config: AppConfig): DynamicModule {
    const httpLogger = createHttpLogger(config);
    return {
      module: LoggingModule,
      // useExisting: the request logger is mounted by createApp, not by nestjs-pino's own middleware.
      imports: [LoggerModule.forRoot({ pinoHttp: { logger: httpLogger.logger }, useExisting: true })],
      providers: [{ provide: HTTP_LOGGER, useValue: httpLogger }],
      exports: [HTTP_LOGGER],
    };
  }
}
