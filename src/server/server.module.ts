import { Module } from '@nestjs/common';
import { InFlightRequests } from './in-flight-requests.js';
import { RouteTable } from './route-table.js';

/**
 * What the request pipeline (AppModule's list) and the edge (createApp) need from the HTTP layer:
 * the route table behind 405's `Allow`, and the responses in flight, which a stop drains.
 */
@Module({
  providers: [RouteTable, InFlightRequests],
  exports: [RouteTable, InFlightRequests],
})
export class ServerModule {}
