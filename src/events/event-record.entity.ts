import { Column, Entity, Index, Unique } from 'typeorm';
import { COMPARED_TEXT, EXACT_TEXT, uniqueColumnName } from '../database/entity-columns.js';
import { NumericIdEntity } from '../database/numeric-id.entity.js';
import { EnvironmentColumn } from '../environments/environment-column.js';

/**
 * A row of the outbox: an event, written in the transaction of the write it tells of and never
 * changed after, but for `dispatched` once it is fanned out to the endpoints.
 */
@Entity({ name: 'events' })
@Unique(uniqueColumnName('events', 'public_id'), ['publicId'])
@Index('IDX_events_dispatched', ['dispatched', 'id'])
@Index('IDX_events_environment_type_id', ['environment', 'type', 'id'])
@Index('IDX_events_environment_id', ['environment', 'id'])
@Index('IDX_events_created_at', ['createdAt'])
export class EventRecord extends NumericIdEntity {
  /** The environment the row belongs to: 0 live, a sandbox's id (Environment). */
  @EnvironmentColumn()
  environment: number;

  /** `evt_…`, the id the API and the deliveries (`webhook-id`) show. */
  @Column({ name: 'public_id', type: 'varchar', length: 40, ...COMPARED_TEXT })
  publicId: string;

  @Column({ type: 'varchar', length: 64, ...COMPARED_TEXT })
  type: string;

  @Column({ name: 'created_at', type: 'datetime', precision: 3 })
  createdAt: Date;

  /** The whole event as delivered, JSON, compared byte for byte. */
  @Column({ type: 'mediumtext', ...EXACT_TEXT })
  payload: string;

  @Column({ type: 'boolean', default: false })
  dispatched: boolean;

  /** Set for an event meant for one endpoint only (a test event); no foreign key, like the event's object. */
  @Column({ name: 'only_endpoint_id', type: 'bigint', nullable: true })
  onlyEndpointId: number | null;
}
