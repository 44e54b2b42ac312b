import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { COMPARED_TEXT } from '../database/entity-columns.js';
import { Pet } from './pet.entity.js';
import { EnvironmentColumn } from '../environments/environment-column.js';

/**
 * A pair of a pet's metadata, indexed so that a listing filtered by one pair reads only the pets that
 * hold it, in id order, at any size (`metadata[key]=value`). Written with the pet's metadata column,
 * in the same write; gone with the pet.
 */
@Entity({ name: 'pet_metadata' })
@Index('IDX_pet_metadata_environment_pair', ['environment', 'name', 'value', 'petId'])
export class PetMetadataEntry {
  /** The environment the row belongs to: 0 live, a sandbox's id (Environment). */
  @EnvironmentColumn()
  environment: number;

  @PrimaryColumn({ name: 'pet_id', type: 'bigint' })
  petId: number;

  @PrimaryColumn({ type: 'varchar', length: 40, ...COMPARED_TEXT })
  name: string;

  @Column({ type: 'varchar', length: 500, ...COMPARED_TEXT })
  value: string;

  /** Declared for the foreign key only. */
  @ManyToOne(() => Pet, { nullable: false, onDelete: 'CASCADE', onUpdate: 'RESTRICT' })
  @JoinColumn({ name: 'pet_id', foreignKeyConstraintName: 'FK_pet_metadata_pet_id' })
  pet?: Pet;
}
