import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { ID_SCHEMA } from '../../validation/parse-id.pipe.js';
import type { Metadata } from '../../validation/metadata.js';
import type { PetStatus } from '../pet-status.js';
import { PetField } from './pet-fields.js';

/** An animal: a NewPet plus the identifier the service assigned, and always a status. */
@ApiSchema({ name: 'Pet', description: 'An animal in the store.' })
export class PetDto {
  @ApiProperty({ ...ID_SCHEMA, description: 'Unique identifier, assigned on creation.', example: 1 })
  id: number;

  @PetField.name()
  name: string;

  @PetField.categoryId()
  categoryId: number;

  @PetField.status()
  status: PetStatus;

  @PetField.metadata()
  metadata: Metadata;
}
