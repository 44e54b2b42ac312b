import { AfterInsert, Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import type { PetStatus } from './pet-status.js';

@Entity({ name: 'pets' })
@Index('IDX_pets_status_id', ['status', 'id'])
export class Pet {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id: number;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  @Column({ name: 'category_id', type: 'bigint' })
  categoryId: number;

  @Column({ type: 'varchar', length: 16 })
  status: PetStatus;

  /** TypeORM hands a generated BIGINT id back as a string; the API promises a JSON integer. */
  @AfterInsert()
  protected idAsNumber(): void {
    this.id = Number(this.id);
  }
}
