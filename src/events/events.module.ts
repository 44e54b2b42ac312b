import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { EventRecord } from './event-record.entity.js';
import { EventsRepository } from './events.repository.js';
import { Outbox } from './outbox.js';

/**
 * Events, below the features: a write records its event through the Outbox, in its own transaction;
 * webhooks/ reads and delivers them from above. One instance for all who import it, so that the
 * deliverer hears every write's `committed()`.
 */
@Module({
  imports: [TypeOrmModule.forFeature([EventRecord])],
  providers: [Outbox, EventsRepository],
  exports: [Outbox, EventsRepository],
})
export class EventsModule {}
