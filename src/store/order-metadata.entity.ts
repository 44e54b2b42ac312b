import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { COMPARED_TEXT } from '../database/entity-columns.js';
import { Order } from './order.entity.js';
import { EnvironmentColumn } from '../environments/environment-column.js';

/**
 * A pair of an order's metadata, indexed so that a listing filtered by one pair reads only the orders that
 * hold it, in id order, at any size (`metadata[key]=value`). Written with the order's metadata column,
 * in the same write; gone with the order.
 */
@Entity({ name: 'order_metadata' })
@Index('IDX_order_metadata_environment_pair', ['environment', 'name', 'value', 'orderId'])
export class OrderMetadataEntry {
  /** The environment the row belongs to: 0 live, a sandbox's id (Environment). */
  @EnvironmentColumn()
  environment: number;

  @PrimaryColumn({ name: 'order_id', type: 'bigint' })
  orderId: number;

  @PrimaryColumn({ type: 'varchar', length: 40, ...COMPARED_TEXT })
  name: string;

  @Column({ type: 'varchar', length: 500, ...COMPARED_TEXT })
  value: string;

  /** Declared for the foreign key only. */
  @ManyToOne(() => Order, { nullable: false, onDelete: 'CASCADE', onUpdate: 'RESTRICT' })
  @JoinColumn({ name: 'order_id', foreignKeyConstraintName: 'FK_order_metadata_order_id' })
  order?: Order;
}
