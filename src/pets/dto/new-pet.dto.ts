import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsIn, IsInt, Max, Min, ValidateIf } from 'class-validator';
import { PET_STATUSES, type PetStatus } from '../pet-status.js';
import { IsName } from '../../validation/is-name.validator.js';
import { CATEGORY_ID_PROPERTY, NAME_PROPERTY, STATUS_PROPERTY } from './pet-properties.js';

const CATEGORY_ID_MESSAGE = `categoryId must be an integer from 1 to ${Number.MAX_SAFE_INTEGER}`;

@ApiSchema({ name: 'NewPet', description: 'An animal to add to the store.' })
export class NewPetDto {
  @ApiProperty(NAME_PROPERTY)
  @IsName(1, 255)
  name: string;

  @ApiProperty(CATEGORY_ID_PROPERTY)
  @IsInt({ message: CATEGORY_ID_MESSAGE })
  @Min(1, { message: CATEGORY_ID_MESSAGE })
  @Max(Number.MAX_SAFE_INTEGER, { message: CATEGORY_ID_MESSAGE })
  categoryId: number;

  @ApiPropertyOptional({ ...STATUS_PROPERTY, default: 'available' })
  // Absent means `available`; an explicit null is not a status.
  @ValidateIf((_, value) => value !== undefined)
  @IsIn(PET_STATUSES, { message: `status must be one of ${PET_STATUSES.join(', ')}` })
  status?: PetStatus;
}
