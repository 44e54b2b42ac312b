import { ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { PatchField } from '../../validation/patch-field.validator.js';
import { IsIn, IsInt, Max, Min } from 'class-validator';
import { IsName } from '../../validation/is-name.validator.js';
import { PET_STATUSES, type PetStatus } from '../pet-status.js';
import { CATEGORY_ID_PROPERTY, NAME_PROPERTY, STATUS_PROPERTY } from './pet-properties.js';

const CATEGORY_ID_MESSAGE = `categoryId must be an integer from 1 to ${Number.MAX_SAFE_INTEGER}`;

@ApiSchema({
  name: 'PetPatch',
  description:
    'A JSON Merge Patch (RFC 7396) of an animal: the fields given replace the stored ones, each valid as in NewPet; ' +
    'a field left out is unchanged, and none may be null.',
})
export class PetPatchDto {
  @ApiPropertyOptional(NAME_PROPERTY)
  @IsName(1, 255)
  @PatchField()
  name?: string;

  @ApiPropertyOptional(CATEGORY_ID_PROPERTY)
  @IsInt({ message: CATEGORY_ID_MESSAGE })
  @Min(1, { message: CATEGORY_ID_MESSAGE })
  @Max(Number.MAX_SAFE_INTEGER, { message: CATEGORY_ID_MESSAGE })
  @PatchField()
  categoryId?: number;

  @ApiPropertyOptional({
    ...STATUS_PROPERTY,
    description:
      'The moves: available to pending or sold, pending to available or sold; sold is final. A pet an open order holds ' +
      'moves only with that order.',
  })
  @IsIn(PET_STATUSES, { message: `status must be one of ${PET_STATUSES.join(', ')}` })
  @PatchField()
  status?: PetStatus;
}
