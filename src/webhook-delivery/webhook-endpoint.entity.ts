import { Column, Entity, Index, Unique } from 'typeorm';
import { COMPARED_TEXT, uniqueColumnName, UNICODE_TEXT } from '../database/entity-columns.js';
import { NumericIdEntity } from '../database/numeric-id.entity.js';
import { EnvironmentColumn } from '../environments/environment-column.js';

/** Where events are POSTed, signed with `secret` (and `previousSecret` until a rotation's overlap ends). */
@Entity({ name: 'webhook_endpoints' })
@Index('IDX_webhook_endpoints_environment_id', ['environment', 'id'])
@Unique(uniqueColumnName('webhook_endpoints', 'public_id'), ['publicId'])
export class WebhookEndpoint extends NumericIdEntity {
  /** The environment the row belongs to: 0 live, a sandbox's id (Environment). */
  @EnvironmentColumn()
  environment: number;

  /** `we_…`, the id the API shows. */
  @Column({ name: 'public_id', type: 'varchar', length: 40, ...COMPARED_TEXT })
  publicId: string;

  @Column({ type: 'varchar', length: 2048, ...COMPARED_TEXT })
  url: string;

  /** Space-separated event types, or `*`. */
  @Column({ type: 'varchar', length: 1024, ...COMPARED_TEXT })
  events: string;

  @Column({ type: 'varchar', length: 255, nullable: true, ...UNICODE_TEXT })
  description: string | null;

  @Column({ type: 'varchar', length: 64, ...COMPARED_TEXT })
  secret: string;

  @Column({ name: 'previous_secret', type: 'varchar', length: 64, nullable: true, ...COMPARED_TEXT })
  previousSecret: string | null;

  @Column({ name: 'previous_secret_until', type: 'datetime', precision: 3, nullable: true })
  previousSecretUntil: Date | null;

  @Column({ type: 'boolean' })
  enabled: boolean;

  @Column({ name: 'disabled_reason', type: 'varchar', length: 255, nullable: true, ...COMPARED_TEXT })
  disabledReason: string | null;

  @Column({ name: 'created_at', type: 'datetime', precision: 3 })
  createdAt: Date;

  /** The principal id of the key that made it (`key-12`, `env-…`); null for one made before 1.5.1. */
  @Column({ name: 'created_by', type: 'varchar', length: 64, nullable: true, ...COMPARED_TEXT })
  createdBy: string | null;

  @Column({ name: 'last_success_at', type: 'datetime', precision: 3, nullable: true })
  lastSuccessAt: Date | null;
}
