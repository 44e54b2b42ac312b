import { Column, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import { UNICODE_TEXT } from '../database/entity-columns.js';
import { NumericIdEntity } from '../database/numeric-id.entity.js';
import { WebhookDelivery } from './webhook-delivery.entity.js';
import { EnvironmentColumn } from '../environments/environment-column.js';

/** One try of a delivery, kept for the event's log (`GET /events/{id}`). */
@Entity({ name: 'webhook_attempts' })
@Index('IDX_webhook_attempts_environment_id', ['environment', 'id'])
@Index('IDX_webhook_attempts_delivery', ['deliveryId', 'id'])
export class WebhookAttempt extends NumericIdEntity {
  /** The environment the row belongs to: 0 live, a sandbox's id (Environment). */
  @EnvironmentColumn()
  environment: number;

  @Column({ name: 'delivery_id', type: 'bigint' })
  deliveryId: number;

  /** Declared for the foreign key only (ON UPDATE unstated, as in the migration). */
  @ManyToOne(() => WebhookDelivery, { nullable: false, onDelete: 'CASCADE' })
  @JoinColumn({ name: 'delivery_id', foreignKeyConstraintName: 'FK_webhook_attempts_delivery' })
  delivery?: WebhookDelivery;

  @Column({ name: 'attempted_at', type: 'datetime', precision: 3 })
  attemptedAt: Date;

  /** The receiver's answer status; null when none came. */
  @Column({ type: 'int', nullable: true })
  status: number | null;

  @Column({ name: 'duration_ms', type: 'int' })
  durationMs: number;

  @Column({ type: 'varchar', length: 255, nullable: true, ...UNICODE_TEXT })
  error: string | null;

  /** The first KiB of the answer, as text. */
  @Column({ name: 'response_excerpt', type: 'varchar', length: 1100, nullable: true, ...UNICODE_TEXT })
  responseExcerpt: string | null;
}
