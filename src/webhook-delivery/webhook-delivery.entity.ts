import { Column, Entity, Index, JoinColumn, ManyToOne, Unique } from 'typeorm';
import { COMPARED_TEXT } from '../database/entity-columns.js';
import { NumericIdEntity } from '../database/numeric-id.entity.js';
import { EventRecord } from '../events/event-record.entity.js';
import { WebhookEndpoint } from './webhook-endpoint.entity.js';
import { EnvironmentColumn } from '../environments/environment-column.js';

export type DeliveryState = 'pending' | 'delivered' | 'failed';

/**
 * An event's delivery to one endpoint (never two for the same pair), and the lease of the instance
 * trying it. Its event and endpoint are declared for the foreign keys only: deliveries are read by
 * written-out statements (delivery-queue.repository.ts, delivery-log.repository.ts). The keys' ON UPDATE is unstated, as in the
 * migration (ids never change): NO ACTION to TypeORM, MySQL 8 and SQLite; MariaDB says RESTRICT.
 */
@Entity({ name: 'webhook_deliveries' })
@Index('IDX_webhook_deliveries_environment_id', ['environment', 'id'])
@Unique('UQ_webhook_deliveries_event_endpoint', ['eventId', 'endpointId'])
@Index('IDX_webhook_deliveries_due', ['state', 'nextAttemptAt'])
@Index('IDX_webhook_deliveries_endpoint', ['endpointId', 'state'])
export class WebhookDelivery extends NumericIdEntity {
  /** The environment the row belongs to: 0 live, a sandbox's id (Environment). */
  @EnvironmentColumn()
  environment: number;

  @Column({ name: 'event_id', type: 'bigint' })
  eventId: number;

  @ManyToOne(() => EventRecord, { nullable: false, onDelete: 'CASCADE' })
  @JoinColumn({ name: 'event_id', foreignKeyConstraintName: 'FK_webhook_deliveries_event' })
  event?: EventRecord;

  @Column({ name: 'endpoint_id', type: 'bigint' })
  endpointId: number;

  @ManyToOne(() => WebhookEndpoint, { nullable: false, onDelete: 'CASCADE' })
  @JoinColumn({ name: 'endpoint_id', foreignKeyConstraintName: 'FK_webhook_deliveries_endpoint' })
  endpoint?: WebhookEndpoint;

  @Column({ type: 'varchar', length: 16, ...COMPARED_TEXT })
  state: DeliveryState;

  /** Attempts made so far. */
  @Column({ type: 'int', default: 0 })
  attempts: number;

  @Column({ name: 'next_attempt_at', type: 'datetime', precision: 3 })
  nextAttemptAt: Date;

  /** A replica holds a claim while it tries; one that died leaves it to expire. */
  @Column({ name: 'claimed_until', type: 'datetime', precision: 3, nullable: true })
  claimedUntil: Date | null;

  @Column({ name: 'claim_token', type: 'varchar', length: 32, nullable: true, ...COMPARED_TEXT })
  claimToken: string | null;
}
