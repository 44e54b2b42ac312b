import { Module } from '@nestjs/common';
import { APP_FILTER, APP_PIPE } from '@nestjs/core';
import { ApiExceptionFilter } from './api-exception.filter.js';
import { InFlightRequests } from './in-flight-requests.js';
import { RouteTable } from './route-table.js';
import { ApiValidationPipe } from './validation.pipe.js';

/**
 * How every request is validated and turned into an error (JSON bodies are parsed by the routes
 * that take one: see CreatesResource). Registered as providers, not in
 * main.ts, so that a test building AppModule gets exactly what production gets.
 */
@Module({
  providers: [
    RouteTable,
    InFlightRequests,
    { provide: APP_FILTER, useClass: ApiExceptionFilter },
    { provide: APP_PIPE, useClass: ApiValidationPipe },
  ],
})
export class HttpModule {}
