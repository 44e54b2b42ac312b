import { Column, Entity, Index } from 'typeorm';
import { UNICODE_TEXT } from '../database/entity-columns.js';
import { NumericIdEntity } from '../database/numeric-id.entity.js';
import type { PetStatus } from './pet-status.js';

@Entity({ name: 'pets' })
@Index('IDX_pets_status_id', ['status', 'id'])
export class Pet extends NumericIdEntity {
  @Column({ type: 'varchar', length: 255, ...UNICODE_TEXT })
  name: string;

  @Column({ name: 'category_id', type: 'bigint' })
  categoryId: number;

  @Column({ type: 'varchar', length: 16 })
  status: PetStatus;
}
