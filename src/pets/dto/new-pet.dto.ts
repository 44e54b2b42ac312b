import { ApiSchema } from '@nestjs/swagger';
import { ValidateIf } from 'class-validator';
import type { Metadata } from '../../validation/metadata.js';
import type { PetStatus } from '../pet-status.js';
import { PetField } from './pet-fields.js';

@ApiSchema({ name: 'NewPet', description: 'An animal to add to the store.' })
export class NewPetDto {
  @PetField.name()
  name: string;

  @PetField.categoryId()
  categoryId: number;

  @PetField.status({ required: false, default: 'available' })
  // Absent means `available`; an explicit null is not a status.
  @ValidateIf((_, value) => value !== undefined)
  status?: PetStatus;

  @PetField.metadata({ required: false })
  metadata?: Metadata;
}
