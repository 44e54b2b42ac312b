import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module.js';
import { InFlightRequests } from './in-flight-requests.js';
import { RouteTable } from './route-table.js';
import { UnroutedRequests } from './unrouted-requests.js';

/**
 * What createApp mounts around the application's routes: the responses in flight (which a stop
 * drains), the route table, and the answer to requests no route takes.
 */
@Module({
  imports: [AuthModule],
  providers: [RouteTable, InFlightRequests, UnroutedRequests],
  exports: [RouteTable, InFlightRequests, UnroutedRequests],
})
export class ServerModule {}
