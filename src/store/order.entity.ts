import { Column, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import { COMPARED_TEXT, EXACT_TEXT } from '../database/entity-columns.js';
import { NumericIdEntity } from '../database/numeric-id.entity.js';
import { METADATA_COLUMN, type Metadata } from '../validation/metadata.js';
import { Pet } from '../pets/pet.entity.js';
import type { OrderStatus } from './order-status.js';
import { EnvironmentColumn, LivemodeColumn } from '../environments/environment-column.js';

@Entity({ name: 'orders' })
@Index('IDX_orders_environment_status_id', ['environment', 'status', 'id'])
@Index('IDX_orders_environment_id', ['environment', 'id'])
@Index('IDX_orders_pet_id', ['petId'])
export class Order extends NumericIdEntity {
  /** The environment the row belongs to: 0 live, a sandbox's id (Environment). */
  @EnvironmentColumn()
  environment: number;

  /** Whether the row is live's, read with it (never stored): every answer's `livemode`. */
  @LivemodeColumn()
  livemode: boolean;

  @Column({ name: 'pet_id', type: 'bigint' })
  petId: number;

  /** Declared for the foreign key only; orders are read without their pet. */
  @ManyToOne(() => Pet, { nullable: false, onDelete: 'RESTRICT', onUpdate: 'RESTRICT' })
  @JoinColumn({ name: 'pet_id', foreignKeyConstraintName: 'FK_orders_pet_id' })
  pet?: Pet;

  @Column({ type: 'int' })
  quantity: number;

  @Column({ type: 'varchar', length: 16, ...COMPARED_TEXT })
  status: OrderStatus;

  @Column({ name: 'ship_date', type: 'datetime', precision: 3, nullable: true })
  shipDate: Date | null;

  @Column({ type: 'boolean' })
  complete: boolean;

  /** An integrator's own references: JSON text, NULL when none; their pairs are indexed in order_metadata for the filter. */
  @Column({ type: 'mediumtext', nullable: true, ...EXACT_TEXT, transformer: METADATA_COLUMN })
  metadata: Metadata;

  /** Counted up by every change, for 1.4.0, which changes a row only at the version it read: kept while it may run beside this one (a rolling upgrade). */
  @Column({ type: 'int', default: 1 })
  version: number;
}
