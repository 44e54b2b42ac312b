import { type DynamicModule, Global, Module } from '@nestjs/common';
import { AppConfig } from './app-config.js';
import { Clock, SYSTEM_CLOCK } from './clock.js';

/** Makes the configuration, validated once by the caller, injectable everywhere as AppConfig, and the Clock. */
@Global()
@Module({})
export class ConfigModule {
  static forRoot(config: AppConfig, clock: Clock = SYSTEM_CLOCK): DynamicModule {
    return {
      module: ConfigModule,
      providers: [
        { provide: AppConfig, useValue: config },
        { provide: Clock, useValue: clock },
      ],
      exports: [AppConfig, Clock],
    };
  }
}
