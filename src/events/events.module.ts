import { Module } from '@nestjs/common';
import { EventsRepository } from './events.repository.js';
import { Outbox } from './outbox.js';

/**
 * Events, below the features: a write records its event through the Outbox, in its own transaction;
 * webhooks/ reads and delivers them from above. One instance for all who import it, so that the
 * deliverer hears every write's `committed()`.
 */
@Module({
  providers: [Outbox, EventsRepository],
  exports: [Outbox, EventsRepository],
})
export class EventsModule {}
