import { Column, Entity, Index } from 'typeorm';
import { COMPARED_TEXT, EXACT_TEXT, UNICODE_TEXT } from '../database/entity-columns.js';
import { NumericIdEntity } from '../database/numeric-id.entity.js';
import { METADATA_COLUMN, type Metadata } from '../validation/metadata.js';
import type { PetStatus } from './pet-status.js';
import { EnvironmentColumn, LivemodeColumn } from '../environments/environment-column.js';

@Entity({ name: 'pets' })
@Index('IDX_pets_environment_status_id', ['environment', 'status', 'id'])
@Index('IDX_pets_environment_id', ['environment', 'id'])
export class Pet extends NumericIdEntity {
  /** The environment the row belongs to: 0 live, a sandbox's id (Environment). */
  @EnvironmentColumn()
  environment: number;

  /** Whether the row is live's, read with it (never stored): every answer's `livemode`. */
  @LivemodeColumn()
  livemode: boolean;

  @Column({ type: 'varchar', length: 255, ...UNICODE_TEXT })
  name: string;

  @Column({ name: 'category_id', type: 'bigint' })
  categoryId: number;

  @Column({ type: 'varchar', length: 16, ...COMPARED_TEXT })
  status: PetStatus;

  /** Counted up by every change, for 1.4.0, which changes a row only at the version it read: kept while it may run beside this one (a rolling upgrade). */
  @Column({ type: 'int', default: 1 })
  version: number;

  /** An integrator's own references: JSON text, NULL when none; their pairs are indexed in pet_metadata for the filter. */
  @Column({ type: 'mediumtext', nullable: true, ...EXACT_TEXT, transformer: METADATA_COLUMN })
  metadata: Metadata;

  /** The open order (placed or approved) that holds the pet: its status moves only with that order. No foreign key, as orders name their pet. */
  @Column({ name: 'held_by_order_id', type: 'bigint', nullable: true })
  heldByOrderId: number | null;
}
