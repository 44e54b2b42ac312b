import { Module } from '@nestjs/common';
import { APP_FILTER, APP_INTERCEPTOR, APP_PIPE } from '@nestjs/core';
import { ApiExceptionFilter } from './api-exception.filter.js';
import { JsonBodyInterceptor } from './json-body.interceptor.js';
import { RouteTable } from './route-table.js';
import { ApiValidationPipe } from './validation.pipe.js';

/**
 * How every request is parsed, validated and turned into an error. Registered as providers, not in
 * main.ts, so that a test building AppModule gets exactly what production gets.
 */
@Module({
  providers: [
    RouteTable,
    { provide: APP_FILTER, useClass: ApiExceptionFilter },
    { provide: APP_PIPE, useClass: ApiValidationPipe },
    { provide: APP_INTERCEPTOR, useClass: JsonBodyInterceptor },
  ],
})
export class HttpModule {}
