import { applyDecorators } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { IsIn } from 'class-validator';
import { IsId } from '../../validation/is-id.validator.js';
import { IsName } from '../../validation/is-name.validator.js';
import { MetadataProperty } from '../../validation/metadata.js';
import { ID_SCHEMA } from '../../validation/parse-id.pipe.js';
import { PET_STATUSES, type PetStatus } from '../pet-status.js';

/**
 * Each field of a pet that a client sends: its validation and its document, stated once. NewPet,
 * PetPatch (a MergePatchType of NewPet) and Pet list the fields they have with these.
 */
export const PetField = {
  name: () =>
    applyDecorators(
      ApiProperty({
        type: 'string',
        minLength: 1,
        maxLength: 255,
        pattern: '\\S',
        description: "The animal's name: 1 to 255 characters, not only white space, stored exactly as sent.",
        example: 'Rex',
      }),
      IsName(1, 255),
    ),

  categoryId: () =>
    applyDecorators(
      ApiProperty({ ...ID_SCHEMA, description: 'Identifier of the category the animal belongs to.', example: 3 }),
      IsId('categoryId'),
    ),

  status: (document: { required?: boolean; default?: PetStatus; description?: string; example?: PetStatus } = {}) =>
    applyDecorators(
      ApiProperty({
        enum: PET_STATUSES,
        enumName: 'PetStatus',
        description:
          'Availability status. It moves (updatePet) from available to pending or sold, from pending to available or sold; ' +
          'sold is final. A pet an open order holds moves only with that order.',
        ...document,
      }),
      IsIn(PET_STATUSES, { message: `status must be one of ${PET_STATUSES.join(', ')}` }),
    ),

  metadata: MetadataProperty,
};
