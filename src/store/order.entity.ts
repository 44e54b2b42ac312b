import { Column, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import { NumericIdEntity } from '../database/numeric-id.entity.js';
import { Pet } from '../pets/pet.entity.js';
import type { OrderStatus } from './order-status.js';

@Entity({ name: 'orders' })
@Index('IDX_orders_status_id', ['status', 'id'])
@Index('IDX_orders_pet_id', ['petId'])
export class Order extends NumericIdEntity {
  @Column({ name: 'pet_id', type: 'bigint' })
  petId: number;

  /** Declared for the foreign key only; orders are read without their pet. */
  @ManyToOne(() => Pet, { nullable: false, onDelete: 'RESTRICT', onUpdate: 'RESTRICT' })
  @JoinColumn({ name: 'pet_id', foreignKeyConstraintName: 'FK_orders_pet_id' })
  pet?: Pet;

  @Column({ type: 'int' })
  quantity: number;

  @Column({ type: 'varchar', length: 16 })
  status: OrderStatus;

  @Column({ name: 'ship_date', type: 'datetime', precision: 3, nullable: true })
  shipDate: Date | null;

  @Column({ type: 'boolean' })
  complete: boolean;

  /** Counted up by every change; a change is made only to the version it was decided on. */
  @Column({ type: 'int', default: 1 })
  version: number;
}
