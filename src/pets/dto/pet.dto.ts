import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import type { PetStatus } from '../pet-status.js';
import { CATEGORY_ID_PROPERTY, NAME_PROPERTY, STATUS_PROPERTY } from './pet-properties.js';
import { ID_SCHEMA } from '../../validation/parse-id.pipe.js';

/** An animal: a NewPet plus the identifier the service assigned, and always a status. */
@ApiSchema({ name: 'Pet', description: 'An animal in the store.' })
export class PetDto {
  @ApiProperty({ ...ID_SCHEMA, description: 'Unique identifier, assigned on creation.', example: 1 })
  id: number;

  @ApiProperty(NAME_PROPERTY)
  name: string;

  @ApiProperty(CATEGORY_ID_PROPERTY)
  categoryId: number;

  @ApiProperty(STATUS_PROPERTY)
  status: PetStatus;
}
